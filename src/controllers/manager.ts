// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `name` turns one on, `-name` turns one off (the first mention of a name wins), and `*` turns
// on every controller that is on by default. A new controller is one line in the table.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { startNamespaceController } from './namespace.ts';

type Starter = (client: Client, log: Logger) => { stop(): void };

interface Entry { start: Starter; offByDefault?: boolean }

const controllers: Record<string, Entry> = {
  namespace: { start: startNamespaceController },
};

export function controllerNames(): string[] {
  return Object.keys(controllers);
}

function enabled(name: string, spec: string[]): boolean {
  let star = false;
  for (const s of spec) {
    if (s === name) return true;
    if (s === `-${name}`) return false;
    if (s === '*') star = true;
  }
  return star && !controllers[name]!.offByDefault;
}

/** the controllers a --controllers list turns on, in table order */
export function selectControllers(spec: string[]): string[] {
  const items = spec.map(s => s.trim()).filter(Boolean);
  for (const s of items) {
    const name = s.startsWith('-') ? s.slice(1) : s;
    if (s !== '*' && !controllers[name]) throw new Error(`unknown controller "${name}" (known: ${controllerNames().join(', ')})`);
  }
  return controllerNames().filter(n => enabled(n, items));
}

export interface StartControllersOptions {
  client: Client;
  /** --controllers items: names, `-name`, `*` */
  enabled: string[];
  log: Logger;
}

export function startControllers(opts: StartControllersOptions): { stop(): void };
/** @deprecated positional form, kept for existing callers */
export function startControllers(client: Client, enabled: string[], log: Logger): { stop(): void };
export function startControllers(a: StartControllersOptions | Client, b?: string[], c?: Logger): { stop(): void } {
  const { client, enabled: spec, log } = b ? { client: a as Client, enabled: b, log: c! } : (a as StartControllersOptions);
  const running = selectControllers(spec).map(name => {
    const l = log.with({ controller: name });
    l.info('starting controller');
    return controllers[name]!.start(client, l);
  });
  return { stop() { for (const r of running) r.stop(); } };
}
