// What the request fuzzer aims at: the kinds of resource it writes, each with the subresources
// the server serves on it and the body each one takes, so that a fuzzed request starts from
// something close to valid and reaches past decoding into validation, admission and storage.

import { createCsr } from '../../../src/pki/csr.ts';

export type Json = Record<string, unknown>;

export const fuzzNamespace = 'fuzz';
export const accountsNamespace = 'fuzz-accounts';
/** the certificate request CSR objects carry, made once (a key pair each time would be slow) */
const csrRequest = Buffer.from((await createCsr({ commonName: 'fuzz' })).csr).toString('base64');
const ns = `/namespaces/${fuzzNamespace}`;

/** a subresource and, for those written with a body, the object it takes */
export interface Sub { name: string; body?: (name: string) => Json }

export interface Kind {
  collection: string;
  apiVersion: string;
  kind: string;
  /** a valid object of the kind named `name` (with the prefix below) */
  object: (name: string) => Json;
  subresources: Sub[];
  /** what names of cluster-scoped kinds start with, so that the fuzzer never touches the cluster's own objects */
  namePrefix?: string;
}

/** the names requests use: the seeded `a` and `b`, and `c`, which comes and goes */
export const objectNames = ['a', 'b', 'c'] as const;

const podSpec = { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '1'], ports: [{ containerPort: 80 }], resources: { requests: { cpu: '10m' } } }] };
const pod = (name: string): Json => ({ metadata: { name, labels: { a: 'b' }, annotations: { n: 'v' } }, spec: podSpec });
const typed = (apiVersion: string, kind: string, body: Json): Json => ({ apiVersion, kind, ...body });
const ownStatus = (make: (name: string) => Json) => (name: string): Json => ({ ...make(name), status: { conditions: [{ type: 'Ready', status: 'True' }] } });

const podSubresources: Sub[] = [
  { name: 'status', body: ownStatus(pod) },
  { name: 'binding', body: name => typed('v1', 'Binding', { metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: 'fz-node' } }) },
  { name: 'eviction', body: name => typed('policy/v1', 'Eviction', { metadata: { name, namespace: fuzzNamespace }, deleteOptions: { gracePeriodSeconds: 0 } }) },
  { name: 'ephemeralcontainers', body: name => ({ ...pod(name), spec: { ...podSpec, ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'c' }] } }) },
  { name: 'resize', body: name => ({ ...pod(name), spec: { containers: [{ ...podSpec.containers[0], resources: { requests: { cpu: '20m' } } }] } }) },
  // streams and proxies: refused here (no node, no upgrade), never served
  { name: 'log' }, { name: 'exec' }, { name: 'attach' }, { name: 'portforward' }, { name: 'proxy' },
];

const deployment = (name: string): Json => ({ metadata: { name }, spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: podSpec } } });
const scale = (apiVersion: string) => (name: string): Json => typed(apiVersion, 'Scale', { metadata: { name, namespace: fuzzNamespace }, spec: { replicas: 2 } });

/** the custom resource's group and the CRD that serves it (see cluster.ts) */
export const widgetGroup = 'fuzz.orch.io';
const widget = (name: string): Json => ({ metadata: { name }, spec: { replicas: 1, size: 'small', tags: ['x'] } });

export const kinds: Kind[] = [
  { collection: `/api/v1${ns}/configmaps`, apiVersion: 'v1', kind: 'ConfigMap', object: name => ({ metadata: { name, labels: { app: 'x' } }, data: { a: '1', 'b.txt': 'two' } }), subresources: [] },
  { collection: `/api/v1${ns}/secrets`, apiVersion: 'v1', kind: 'Secret', object: name => ({ metadata: { name }, type: 'Opaque', stringData: { k: 'v' }, data: { d: 'aGVsbG8=' } }), subresources: [] },
  { collection: `/api/v1${ns}/pods`, apiVersion: 'v1', kind: 'Pod', object: pod, subresources: podSubresources },
  { collection: `/apis/apps/v1${ns}/deployments`, apiVersion: 'apps/v1', kind: 'Deployment', object: deployment, subresources: [{ name: 'status', body: ownStatus(deployment) }, { name: 'scale', body: scale('autoscaling/v1') }] },
  { collection: '/apis/scheduling.k8s.io/v1/priorityclasses', apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', object: name => ({ metadata: { name: `fz-${name}` }, value: 100, description: 'd' }), subresources: [], namePrefix: 'fz-' },
  {
    // in a namespace of their own: a deleted `default` account would hold up every pod create in `fuzz` (admission waits for it)
    collection: `/api/v1/namespaces/${accountsNamespace}/serviceaccounts`, apiVersion: 'v1', kind: 'ServiceAccount', object: name => ({ metadata: { name } }),
    subresources: [{ name: 'token', body: name => typed('authentication.k8s.io/v1', 'TokenRequest', { metadata: { name }, spec: { audiences: ['fuzz'], expirationSeconds: 600 } }) }],
  },
  {
    collection: `/api/v1${ns}/services`, apiVersion: 'v1', kind: 'Service', object: name => ({ metadata: { name }, spec: { selector: { a: 'b' }, ports: [{ port: 80, targetPort: 8080 }] } }),
    subresources: [{ name: 'status', body: name => ({ metadata: { name }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } } }) }, { name: 'proxy' }],
  },
  {
    collection: '/api/v1/namespaces', apiVersion: 'v1', kind: 'Namespace', object: name => ({ metadata: { name: `fz-${name}`, labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } }, spec: { finalizers: ['kubernetes'] } }),
    subresources: [{ name: 'status', body: name => ({ metadata: { name: `fz-${name}` }, status: { phase: 'Active' } }) }, { name: 'finalize', body: name => ({ metadata: { name: `fz-${name}` }, spec: { finalizers: [] } }) }],
    namePrefix: 'fz-',
  },
  {
    collection: `/apis/policy/v1${ns}/poddisruptionbudgets`, apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', object: name => ({ metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } }),
    subresources: [{ name: 'status', body: name => ({ metadata: { name }, status: { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 } }) }],
  },
  {
    collection: '/apis/certificates.k8s.io/v1/certificatesigningrequests', apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest',
    object: name => ({ metadata: { name: `fz-${name}` }, spec: { request: csrRequest, signerName: 'example.com/fuzz', usages: ['digital signature', 'client auth'] } }),
    subresources: [
      { name: 'approval', body: name => ({ metadata: { name: `fz-${name}` }, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Fuzz', message: 'm' }] } }) },
      { name: 'status', body: name => ({ metadata: { name: `fz-${name}` }, status: { certificate: 'aGVsbG8=' } }) },
    ],
    namePrefix: 'fz-',
  },
  {
    collection: `/apis/${widgetGroup}/v1${ns}/widgets`, apiVersion: `${widgetGroup}/v1`, kind: 'Widget', object: widget,
    subresources: [{ name: 'status', body: name => ({ ...widget(name), status: { replicas: 1, phase: 'Ready' } }) }, { name: 'scale', body: scale('autoscaling/v1') }],
  },
];
