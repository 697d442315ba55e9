// kube-apiserver's `priority-and-fairness-config-producer`: writes the bootstrap FlowSchemas and
// PriorityLevelConfigurations through the registry at start (suggested first, then mandatory,
// then removing what is no longer suggested) and again every minute, so a deleted mandatory
// object comes back and a suggested one follows the server's version unless its user opted out.

import { StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Logger } from '../../api/log.ts';
import type { Registry } from '../../registry/registry.ts';
import type { Catalog, ResourceInfo } from '../../schema/types.ts';
import { defaultFlowSchema, defaultPriorityLevel } from '../../registry/flowcontrol/defaults.ts';
import {
  autoUpdateAnnotation, mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels, type BootstrapObject,
} from '../../registry/flowcontrol/bootstrap-objects.ts';
import { revise, shouldRemove } from './ensure.ts';

export const flowControlGroup = 'flowcontrol.apiserver.k8s.io';
/** the field manager kube-apiserver's ensurer writes as */
export const configProducerManager = 'api-priority-and-fairness-config-producer-v1';

export interface FlowControlBootstrapDeps {
  registry: Registry;
  catalog: Catalog;
  log?: Logger;
}

interface Kind {
  info: ResourceInfo;
  mandatory: BootstrapObject<object>[];
  suggested: BootstrapObject<object>[];
  defaults(obj: { spec?: object }): void;
}

function kinds(catalog: Catalog): Kind[] {
  const pl = catalog.lookup(flowControlGroup, 'v1', 'prioritylevelconfigurations');
  const fs = catalog.lookup(flowControlGroup, 'v1', 'flowschemas');
  const out: Kind[] = [];
  if (pl) out.push({ info: pl, mandatory: mandatoryPriorityLevels, suggested: suggestedPriorityLevels, defaults: defaultPriorityLevel as Kind['defaults'] });
  if (fs) out.push({ info: fs, mandatory: mandatoryFlowSchemas, suggested: suggestedFlowSchemas, defaults: defaultFlowSchema as Kind['defaults'] });
  return out;
}

const isNotFound = (err: unknown) => err instanceof StatusError && err.code === 404;

/** another server of the cluster may write the same object meanwhile: read it again and decide again */
async function ensureOne(registry: Registry, kind: Kind, obj: BootstrapObject<object>, mandatory: boolean, log?: Logger): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ensureOnce(registry, kind, obj, mandatory, log);
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'Conflict') || attempt >= 2) throw err;
    }
  }
}

async function ensureOnce(registry: Registry, kind: Kind, obj: BootstrapObject<object>, mandatory: boolean, log?: Logger): Promise<void> {
  const want = { spec: structuredClone(obj.spec) };
  kind.defaults(want);
  let current: KubeObject;
  try {
    current = await registry.get(kind.info, undefined, obj.name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await registry.create(kind.info, undefined, {
      metadata: { name: obj.name, annotations: { [autoUpdateAnnotation]: 'true' } },
      spec: structuredClone(obj.spec),
    } as KubeObject, { manager: configProducerManager }).catch(e => {
      // another server of the cluster made it meanwhile
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    });
    log?.info('created APF configuration object', { kind: kind.info.kind, name: obj.name, type: mandatory ? 'mandatory' : 'suggested' });
    return;
  }
  const revised = revise({ current, want: want.spec, mandatory, keepExemptTuning: mandatory && kind.info.resource === 'prioritylevelconfigurations' && obj.name === 'exempt' });
  if (!revised) return;
  await registry.update(kind.info, undefined, obj.name, revised, { manager: configProducerManager });
  log?.info('updated APF configuration object', { kind: kind.info.kind, name: obj.name, type: mandatory ? 'mandatory' : 'suggested' });
}

/** one pass of the config producer; errors propagate (the caller retries on its next pass) */
export async function ensureFlowControlBootstrap(deps: FlowControlBootstrapDeps): Promise<void> {
  const all = kinds(deps.catalog);
  // the objects are independent of each other: written together, a fresh cluster's twenty
  // creates share the backend's commits instead of queueing one after another
  await Promise.all(all.flatMap(kind => kind.suggested.map(obj => ensureOne(deps.registry, kind, obj, false, deps.log))));
  await Promise.all(all.flatMap(kind => kind.mandatory.map(obj => ensureOne(deps.registry, kind, obj, true, deps.log))));
  for (const kind of all) {
    const names = new Set([...kind.mandatory, ...kind.suggested].map(o => o.name));
    for (const obj of (await deps.registry.list(kind.info, undefined)).items) {
      if (!shouldRemove(obj, names)) continue;
      await deps.registry.delete(kind.info, undefined, obj.metadata.name!).catch(err => { if (!isNotFound(err)) throw err; });
      deps.log?.info('deleted APF configuration object no longer suggested', { kind: kind.info.kind, name: obj.metadata.name });
    }
  }
}

/**
 * The first pass, as kube-apiserver's post-start hook makes it: a pass that fails (the storage
 * not answering yet, say) is made again every second, for at most five minutes, before the
 * server gives up starting.
 */
export async function ensureFlowControlBootstrapAtStart(deps: FlowControlBootstrapDeps, retry = { everyMs: 1000, forMs: 5 * 60_000 }): Promise<void> {
  const giveUpAt = performance.now() + retry.forMs;
  for (;;) {
    try {
      return await ensureFlowControlBootstrap(deps);
    } catch (err) {
      if (performance.now() + retry.everyMs > giveUpAt) throw new Error(`unable to initialize APF bootstrap configuration: ${(err as Error).message}`);
      deps.log?.warn('APF bootstrap ensurer ran into error, will retry later', { err: (err as Error).message });
      await new Promise(r => setTimeout(r, retry.everyMs));
    }
  }
}

export interface ConfigProducer {
  stop(): void;
}

/** passes every `intervalMs` (kube-apiserver: a minute) after the first, which the caller awaits */
export function startFlowControlConfigProducer(deps: FlowControlBootstrapDeps, intervalMs = 60_000): ConfigProducer {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ensureFlowControlBootstrap(deps)
      .catch(err => deps.log?.warn('APF bootstrap ensurer ran into error, will retry later', { err: (err as Error).message }))
      .finally(() => { running = false; });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
