// The FlowClassifier over the stored configuration: FlowSchemas and PriorityLevelConfigurations
// followed through the registry's watch (the watch cache), digested again on every change, and
// each stored FlowSchema's Dangling condition kept true through its status subresource, at the
// pace kube-apiserver's APF controller keeps (status-pacing.ts).

import type { Logger } from '../../api/log.ts';
import { rfc3339 } from '../../api/time.ts';
import { applyConfiguration } from '../../apply/index.ts';
import { managerContext } from '../../registry/field-managers.ts';
import type { KubeObject } from '../../api/object.ts';
import { StatusError } from '../../api/status.ts';
import type { Registry, Watcher } from '../../registry/registry.ts';
import type { Catalog, ResourceInfo } from '../../schema/types.ts';
import type { FlowcontrolV1FlowSchema as FlowSchemaObject } from '../../schema/generated/types.ts';
import type { RequestInfo } from '../request-info.ts';
import type { User } from '../user.ts';
import type { FlowClassification, FlowClassifier } from './types.ts';
import { flowControlGroup } from './config-producer.ts';
import { configConsumerManager, danglingApplyConfiguration, danglingUpdate } from './dangling.ts';
import { digest, type Digest } from './digest.ts';
import { flowSchemaMatches, type RequestDigest } from './rules.ts';
import { StatusPacing, type PacingDeps } from './status-pacing.ts';

export interface FlowClassifierDeps {
  registry: Registry;
  catalog: Catalog;
  log?: Logger;
  /** the clock of the Dangling conditions' lastTransitionTime */
  now?: () => Date;
  /** the clock and timer of the status writes' pacing */
  pacing?: PacingDeps;
}

export interface RunningFlowClassifier extends FlowClassifier {
  /** resolves once both resources have been read */
  synced: Promise<void>;
  stop(): void;
}

/**
 * What the rules read of a request. kube-apiserver's RequestInfo names a namespace's own name as
 * the namespace of `/api/v1/namespaces/NAME` (orch's leaves it out for the namespaces resource).
 */
export function requestDigest(info: RequestInfo): RequestDigest {
  const namespace = info.resource === 'namespaces' && info.isResourceRequest ? info.name : info.namespace;
  return { isResourceRequest: info.isResourceRequest, verb: info.verb, path: info.path, group: info.group, resource: info.resource, subresource: info.subresource, namespace };
}

/** the first schema that matches; catch-all when none does (it matches every authenticated or anonymous user) */
export function classifyWith(config: Digest, user: User, info: RequestInfo): FlowClassification {
  const r = requestDigest(info);
  const schema = config.schemas.find(s => flowSchemaMatches(s.spec, user, r)) ?? config.schemas.find(s => s.name === 'catch-all')!;
  const level = config.levels.get(schema.spec.priorityLevelConfiguration.name)!;
  // as kube-apiserver: flows are told apart only where there are queues to spread them over
  const method = (level.queuing?.queues ?? 0) > 1 ? schema.spec.distinguisherMethod?.type : undefined;
  const distinguisher = method === 'ByUser' ? user.name : method === 'ByNamespace' ? r.namespace ?? '' : '';
  return { flowSchema: { name: schema.name, uid: schema.uid }, priorityLevel: level, distinguisher };
}

export function createFlowClassifier(deps: FlowClassifierDeps): RunningFlowClassifier {
  const now = deps.now ?? (() => new Date());
  const objects = { prioritylevelconfigurations: new Map<string, KubeObject>(), flowschemas: new Map<string, KubeObject>() };
  const listeners: Array<() => void> = [];
  const watchers: Watcher[] = [];
  const writing = new Set<string>();
  let config = digest([], []);
  let stopped = false;
  let ready = false;
  const fsInfo = deps.catalog.lookup(flowControlGroup, 'v1', 'flowschemas');

  /**
   * Applies the condition to the status (server-side apply, forced, as kube-apiserver's
   * controller applies it); resolves false when the write failed (a FlowSchema deleted meanwhile
   * needs nothing more).
   */
  const writeDangling = (info: ResourceInfo, name: string, found: boolean): Promise<boolean> => {
    writing.add(name);
    return deps.registry.modify(info, undefined, name, current => {
      const condition = danglingUpdate(current as Pick<FlowSchemaObject, 'spec' | 'status'>, found, now());
      if (!condition) return current;
      const ctx = managerContext(info, configConsumerManager, 'status', rfc3339(now()));
      return applyConfiguration(current, danglingApplyConfiguration(name, condition), ctx, true) as KubeObject;
    }, { subresource: 'status', manager: configConsumerManager, operation: 'Apply' })
      .then(() => true, err => {
        if (err instanceof StatusError && err.code === 404) return true;
        deps.log?.warn('failed to set a status.condition for FlowSchema', { name, err: (err as Error).message });
        return false;
      })
      .finally(() => writing.delete(name));
  };

  // the Dangling conditions that differ from the configuration, written as far as the pacing lets
  const syncStatus = () => {
    if (!fsInfo || !ready || stopped) return;
    let heldBack = false;
    const writes: Promise<boolean>[] = [];
    for (const fs of objects.flowschemas.values()) {
      const name = fs.metadata.name!;
      const found = config.found.get(name) ?? false;
      if (writing.has(name) || !danglingUpdate(fs as FlowSchemaObject, found, now())) continue;
      if (pacing.mayWrite(name)) writes.push(writeDangling(fsInfo, name, found));
      else heldBack = true;
    }
    void Promise.all(writes).then(ok => { if (!stopped) pacing.passDone({ failed: ok.includes(false), heldBack }); });
  };
  const pacing = new StatusPacing(syncStatus, deps.pacing);

  const refresh = () => {
    if (!ready || stopped) return;
    config = digest(objects.prioritylevelconfigurations.values() as never, objects.flowschemas.values() as never);
    syncStatus();
    for (const l of listeners) l();
  };

  const follow = (resource: keyof typeof objects): Promise<void> => new Promise((resolve, reject) => {
    const info: ResourceInfo | undefined = deps.catalog.lookup(flowControlGroup, 'v1', resource);
    if (!info) { resolve(); return; }
    const map = objects[resource];
    let seen: Set<string> | undefined;
    const start = () => deps.registry.watch(info, undefined, {}, {
      event(type, obj) {
        if (type === 'BOOKMARK' || type === 'ERROR') return;
        const name = (obj as KubeObject).metadata.name!;
        seen?.add(name);
        if (type === 'DELETED') map.delete(name); else map.set(name, obj as KubeObject);
        refresh();
      },
      synced() {
        if (seen) for (const name of [...map.keys()]) if (!seen.has(name)) map.delete(name);
        seen = undefined;
        resolve();
        refresh();
      },
      end(err) {
        if (stopped) return;
        // the history is gone (compacted): read everything again
        deps.log?.warn('APF configuration watch ended, restarting', { resource, err: err?.message });
        setTimeout(() => { seen = new Set(); void start().then(w => watchers.push(w), reject); }, 100);
      },
    });
    start().then(w => watchers.push(w), reject);
  });

  const synced = Promise.all([follow('prioritylevelconfigurations'), follow('flowschemas')]).then(() => { ready = true; refresh(); });
  return {
    synced,
    classify: (user, info) => classifyWith(config, user, info),
    priorityLevels: () => [...config.levels.values()],
    onChange(listener) { listeners.push(listener); },
    stop() { stopped = true; pacing.stop(); for (const w of watchers) w.cancel(); },
  };
}
