// The warnings of the resources that hold a pod or a pod template, as kube-apiserver's strategies
// give them: a pod's on create only (pod updates are frequent and machine-made), a template's
// on create and on an update that changed the spec (kube-apiserver compares generations), each
// under the template's path.

import { jsonEqual, type KubeObject } from '../../api/object.ts';
import { dns1123Label } from '../../api/names.ts';
import { goJson } from '../../codec/go-json.ts';
import type { Strategy } from '../strategy.ts';
import { podWarnings, type PodParts } from './pod-spec.ts';
import { claimSpecWarnings } from './fractional-bytes.ts';

type Hooks = Pick<Strategy, 'warningsOnCreate' | 'warningsOnUpdate'>;

/** names that become (part of) hostnames: a DNS label is recommended, as Go prints the reasons */
function nameWarning(obj: KubeObject, usedIn: string): string[] {
  const msgs = dns1123Label(obj.metadata?.name ?? '');
  return msgs.length ? [`metadata.name: this is used in ${usedIn}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`] : [];
}

const podNames = 'Pod names and hostnames';

function dig(obj: unknown, path: string[]): unknown {
  let v = obj;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}
const templateAt = (obj: KubeObject, path: string[]) => (dig(obj, path) ?? {}) as PodParts;
const generationMoved = (obj: KubeObject, old: KubeObject) => obj.metadata?.generation !== old.metadata?.generation;
/**
 * whether the template at `path` differs as Go values (the stored object holds the zero values
 * Go writes, `resources: {}`, that a body leaves out)
 */
const templateMoved = (path: string[]) => (obj: KubeObject, old: KubeObject) => !jsonEqual(dig(JSON.parse(goJson(obj)), path), dig(JSON.parse(goJson(old)), path));

export const podWarningHooks: Hooks = {
  warningsOnCreate: obj => [...nameWarning(obj, "the Pod's hostname"), ...podWarnings(obj as PodParts)],
};

type Check = (obj: KubeObject) => string[];
const none: Check = () => [];

/**
 * a resource whose pod template sits at `path`; `named`: its name starts pod names. `changed`
 * says when an update is checked again; `spec` checks go with the template's, before it.
 */
function templateHooks(path: string[], named: boolean, changed: (obj: KubeObject, old: KubeObject) => boolean, spec: Check = none): Hooks {
  const prefix = path.join('.');
  const template = (obj: KubeObject) => [...spec(obj), ...podWarnings(templateAt(obj, path), prefix)];
  return {
    warningsOnCreate: obj => [...(named ? nameWarning(obj, podNames) : []), ...template(obj)],
    warningsOnUpdate: (obj, old) => (changed(obj, old) ? template(obj) : []),
  };
}

const spec = ['spec', 'template'];

/** the Indexed Job sizes past which the job controller may lose track of failed indexes */
function jobSpecWarnings(obj: KubeObject, path: string[]): string[] {
  const s = dig(obj, path) as { completionMode?: string; completions?: number; parallelism?: number } | undefined;
  if (s?.completionMode !== 'Indexed' || !((s.completions ?? 0) > 100_000 && (s.parallelism ?? 0) > 10_000)) return [];
  return [`${path.join('.')}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`];
}

/**
 * a StatefulSet's claim templates and history limit, said on every update too; kube-apiserver
 * names a claim template's fields `spec.volumeClaimTemplates[i]` on create and
 * `spec.volumeClaimTemplates[i].Spec` on update
 */
function statefulSetWarnings(obj: KubeObject, update: boolean): string[] {
  const claims = (dig(obj, ['spec', 'volumeClaimTemplates']) ?? []) as Array<{ spec?: Parameters<typeof claimSpecWarnings>[0] }>;
  const out = claims.flatMap((c, i) => claimSpecWarnings(c?.spec, `spec.volumeClaimTemplates[${i}]${update ? '.Spec' : ''}`));
  const limit = dig(obj, ['spec', 'revisionHistoryLimit']);
  if (typeof limit === 'number' && limit < 0) out.push('spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended');
  return out;
}

/** a resource's hooks by its table name (strategies.ts) */
export const templateWarningHooks: Record<string, Hooks> = {
  'deployments': templateHooks(spec, true, generationMoved),
  'replicasets': templateHooks(spec, true, generationMoved),
  'statefulsets': {
    warningsOnCreate: obj => [...podWarnings(templateAt(obj, spec), 'spec.template'), ...statefulSetWarnings(obj, false)],
    warningsOnUpdate: (obj, old) => [...(generationMoved(obj, old) ? podWarnings(templateAt(obj, spec), 'spec.template') : []), ...statefulSetWarnings(obj, true)],
  },
  // a DaemonSet's template generation moves with its template alone
  'daemonsets': templateHooks(spec, false, templateMoved(spec)),
  'replicationcontrollers': {
    ...templateHooks(spec, true, generationMoved),
    // kube-apiserver passes the two templates the other way round here, so an update is warned
    // of what the stored template held
    warningsOnUpdate: (obj, old) => (generationMoved(obj, old) ? podWarnings(templateAt(old, spec), 'spec.template') : []),
  },
  // (kube-apiserver moves a PodTemplate's generation with its template; orch does not track it)
  'podtemplates': templateHooks(['template'], false, templateMoved(['template'])),
  'jobs': templateHooks(spec, true, generationMoved, obj => jobSpecWarnings(obj, ['spec'])),
  'cronjobs': templateHooks(['spec', 'jobTemplate', 'spec', 'template'], true, generationMoved, obj => jobSpecWarnings(obj, ['spec', 'jobTemplate', 'spec'])),
};
