// Custom resources against ConfigMaps on the same server in the same run: creates at concurrency
// and lists of what was created, for a CRD with a structural schema and the same CRD with CEL
// validation rules. Objects of the three kinds carry about the same bytes. Creates go in three
// alternating rounds so that machine noise falls on every kind; for each kind the round of its
// median ratio decides.

import { loadKubeconfig } from '../../src/client/kubeconfig.ts';
import { createClient, type Client } from '../../src/client/rest.ts';
import { runLoad, type LoadResult, type TlsClient } from './load.ts';

const group = 'bench.example.com';
const filler = 'x'.repeat(200);

export interface CrdBench {
  objects: number;
  /** the median round of CRs against ConfigMaps, and that of CRs with CEL (each with its round's ConfigMaps) */
  create: { configMap: LoadResult; plain: LoadResult; celConfigMap: LoadResult; cel: LoadResult };
  /** each round's CR/ConfigMap create rate, plain and with CEL */
  rounds: Array<[number, number]>;
  list: { configMap: LoadResult; plain: LoadResult; cel: LoadResult };
}

const celRules = `[
  { "rule": "self.replicas <= self.maxReplicas", "messageExpression": "'replicas must not exceed maxReplicas for the backup scheduled at ' + self.schedule" },
  { "rule": "self.schedule.matches('^(@(hourly|daily|weekly)|[0-9*/,-]+( [0-9*/,-]+){4})$')", "message": "schedule must be a cron expression" },
  { "rule": "self.labels.all(k, k.size() <= 63)", "message": "label keys are at most 63 characters" }
]`;

function crd(plural: string, kind: string, withCel: boolean): unknown {
  const spec = {
    type: 'object', required: ['schedule', 'bucket'],
    ...(withCel && { 'x-kubernetes-validations': JSON.parse(celRules) }),
    properties: {
      schedule: { type: 'string', maxLength: 64 },
      bucket: { type: 'string', ...(withCel && { 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'bucket is immutable' }] }) },
      replicas: { type: 'integer', minimum: 0, default: 1 },
      maxReplicas: { type: 'integer', minimum: 1, default: 3 },
      // bounded, as a CRD's rules must be for their estimated cost to fit Kubernetes' limit
      labels: { type: 'object', maxProperties: 16, additionalProperties: { type: 'string', maxLength: 63 } },
      note: { type: 'string', maxLength: 1024 },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } }, subresources: { status: {} } }],
    },
  };
}

const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { schedule: '0 3 * * *', bucket: 'backups', note: filler } });
const custom = (kind: string) => (name: string) => JSON.stringify({ apiVersion: `${group}/v1`, kind, metadata: { name, labels: { app: 'bench' } }, spec: { schedule: '0 3 * * *', bucket: 'backups', replicas: 2, labels: { tier: 'gold' }, note: filler } });

async function established(client: Client, plural: string, ns: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try { await client.list(`/apis/${group}/v1/namespaces/${ns}/${plural}`); return; } catch (err) {
      if (performance.now() > deadline) throw new Error(`${plural}.${group} not served after 10 s: ${err}`);
    }
    await new Promise(r => setTimeout(r, 20));
  }
}

export async function runCrdBench(url: string, tls: TlsClient, kubeconfig: string, opts: { objects: number; concurrency: number }): Promise<CrdBench> {
  const client = createClient(await loadKubeconfig(kubeconfig));
  const kinds = [
    { key: 'configMap', ns: 'crd-bench-cm', path: 'api/v1', plural: 'configmaps', body: configMap },
    { key: 'plain', ns: 'crd-bench-plain', path: `apis/${group}/v1`, plural: 'gadgets', body: custom('Gadget') },
    { key: 'cel', ns: 'crd-bench-cel', path: `apis/${group}/v1`, plural: 'gizmos', body: custom('Gizmo') },
  ] as const;
  try {
    await client.create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('gadgets', 'Gadget', false));
    await client.create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('gizmos', 'Gizmo', true));
    for (const k of kinds) await client.create('/api/v1/namespaces', { metadata: { name: k.ns } });
    await established(client, 'gadgets', kinds[1].ns);
    await established(client, 'gizmos', kinds[2].ns);

    // one create of each first: the CEL library and the CRD's compiled rules load on first use
    for (const k of kinds) await runLoad(url, tls, { total: 1, concurrency: 1, request: () => ({ method: 'POST', path: `/${k.path}/namespaces/${k.ns}/${k.plural}`, body: k.body('warm') }), expect: 201 });
    const third = Math.ceil(opts.objects / 3);
    const rounds: Array<Record<(typeof kinds)[number]['key'], LoadResult>> = [];
    for (let round = 0; round < 3; round++) {
      const r = {} as Record<(typeof kinds)[number]['key'], LoadResult>;
      for (const k of kinds) {
        r[k.key] = await runLoad(url, tls, { total: third, concurrency: opts.concurrency, request: i => ({ method: 'POST', path: `/${k.path}/namespaces/${k.ns}/${k.plural}`, body: k.body(`o${round * third + i}`) }), expect: 201 });
      }
      rounds.push(r);
    }
    // each kind's ratio to ConfigMaps in the round where it is the median of the three
    const medianBy = (key: 'plain' | 'cel') => [...rounds].sort((a, b) => a[key].perSecond / a.configMap.perSecond - b[key].perSecond / b.configMap.perSecond)[1]!;
    const [plainRound, celRound] = [medianBy('plain'), medianBy('cel')];

    const reps = opts.objects >= 5000 ? 10 : 30;
    const list = {} as CrdBench['list'];
    for (const k of kinds) {
      list[k.key] = await runLoad(url, tls, { total: reps, concurrency: 1, request: () => ({ method: 'GET', path: `/${k.path}/namespaces/${k.ns}/${k.plural}` }), expect: 200 });
    }
    return {
      objects: third * 3,
      create: { configMap: plainRound.configMap, plain: plainRound.plain, celConfigMap: celRound.configMap, cel: celRound.cel },
      rounds: rounds.map(r => [r.plain.perSecond / r.configMap.perSecond, r.cel.perSecond / r.configMap.perSecond]),
      list,
    };
  } finally {
    client.close();
  }
}
