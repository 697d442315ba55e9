// The two kinds one replica controller serves: ReplicaSet (apps/v1, a LabelSelector, reports
// terminating pods) and ReplicationController (v1, a plain label map that defaults to the
// template's labels). What differs between them is this table, as in Kubernetes, where the
// replication controller is the ReplicaSet controller behind a conversion.

import type { LabelSelector } from '../../api/selectors/label.ts';
import { labelSelectorFromObject, labelSelectorFromSet, nothing } from '../../api/selectors/label.ts';
import type { AppsV1ReplicaSetSpec, CoreV1ReplicationControllerSpec } from '../../schema/generated/types.ts';
import type { ReplicaStatus } from './replica-status.ts';

export interface ReplicaOwner {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; uid?: string; generation?: number; resourceVersion?: string; deletionTimestamp?: string; ownerReferences?: Array<{ uid: string; controller?: boolean; kind: string; name: string; apiVersion: string }>; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: AppsV1ReplicaSetSpec | CoreV1ReplicationControllerSpec;
  status?: ReplicaStatus;
}

export interface ReplicaKind {
  apiVersion: string;
  kind: string;
  /** every object of the kind, for the informer */
  collection: string;
  path(namespace: string, name: string): string;
  /** the source component of its events */
  component: string;
  /** the pods it selects; throws on an invalid selector */
  selector(owner: ReplicaOwner): LabelSelector;
  /** whether its status has terminatingReplicas (DeploymentReplicaSetTerminatingReplicas, beta and on in 1.35) */
  reportsTerminating: boolean;
}

const enc = encodeURIComponent;

export const replicaSetKind: ReplicaKind = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  collection: '/apis/apps/v1/replicasets',
  path: (ns, name) => `/apis/apps/v1/namespaces/${enc(ns)}/replicasets/${enc(name)}`,
  component: 'replicaset-controller',
  selector: o => labelSelectorFromObject((o.spec as AppsV1ReplicaSetSpec | undefined)?.selector),
  reportsTerminating: true,
};

export const replicationControllerKind: ReplicaKind = {
  apiVersion: 'v1',
  kind: 'ReplicationController',
  collection: '/api/v1/replicationcontrollers',
  path: (ns, name) => `/api/v1/namespaces/${enc(ns)}/replicationcontrollers/${enc(name)}`,
  component: 'replication-controller',
  selector(o) {
    const spec = o.spec as CoreV1ReplicationControllerSpec | undefined;
    const set = spec?.selector && Object.keys(spec.selector).length ? spec.selector : spec?.template?.metadata?.labels;
    return set && Object.keys(set).length ? labelSelectorFromSet(set) : nothing;
  },
  reportsTerminating: false,
};
