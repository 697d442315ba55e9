// Control loops by name, selected as kube-controller-manager's --controllers selects them:
// `*` for all on by default, `name` to add one, `-name` to leave one out.

import type { Logger } from '../api/log.ts';
import type { Client } from '../client/rest.ts';
import { startNamespaceController } from './namespace.ts';

type Starter = (client: Client, log: Logger) => { stop(): void };

const controllers: Record<string, Starter> = {
  namespace: startNamespaceController,
};

export function controllerNames(): string[] {
  return Object.keys(controllers);
}

export function selectControllers(spec: string[]): string[] {
  const names = new Set<string>();
  for (const s of spec) {
    if (s === '*') controllerNames().forEach(n => names.add(n));
    else if (s.startsWith('-')) names.delete(s.slice(1));
    else if (controllers[s]) names.add(s);
    else throw new Error(`unknown controller "${s}" (known: ${controllerNames().join(', ')})`);
  }
  return [...names];
}

export function startControllers(client: Client, enabled: string[], log: Logger): { stop(): void } {
  const running = enabled.map(n => controllers[n]!(client, log.with({ controller: n })));
  return { stop() { for (const r of running) r.stop(); } };
}
