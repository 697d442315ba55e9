// The import rules of docs/architecture.md, checked by `npm run lint` (and CI). Layers are
// listed inner first; a layer imports only the layers before it. The layer list lives here
// once: each rule below is derived from it.

const layers = ['api', 'pki', 'schema', 'codec', 'patch', 'apply', 'streaming', 'storage', 'registry', 'apiserver', 'client', 'controllers', 'netfilter', 'proxy', 'network-policy', 'dns', 'agent', 'runtime-sim', 'sim-nodes', 'cli'];
const pure = ['api', 'schema', 'codec', 'patch', 'apply'];
// what the pure layers never import: disk, network, processes, threads, databases, the machine
const io = ['fs', 'fs/promises', 'net', 'tls', 'dgram', 'dns', 'dns/promises', 'http', 'https', 'http2', 'child_process', 'worker_threads', 'cluster', 'os', 'sqlite', 'readline', 'readline/promises', 'inspector', 'repl', 'vm'];
const any = list => `^src/(${list.join('|')})/`;

const layerRules = layers.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `${layer}/ imports only the layers before it: ${layers.slice(0, i).join(', ') || '(none)'}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: any(layers.slice(i + 1)) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'clients-of-the-api',
      comment: 'controllers, the agent, simulated nodes and the cluster components (service proxy, network policy, DNS) act through the public API (client/) like third-party controllers: never storage, registry or the API server',
      severity: 'error',
      from: { path: any(['controllers', 'netfilter', 'proxy', 'network-policy', 'dns', 'agent', 'sim-nodes']) },
      to: { path: any(['storage', 'registry', 'apiserver']) },
    },
    {
      name: 'runtime-sim-apart',
      comment: 'the simulated runtime shares only the generated CRI descriptor with the agent (descriptor.ts and what scripts/gen-cri-table.ts writes under generated/), besides the shared api/ layer and the stream protocols of streaming/ (its streaming server speaks them as containerd\'s does): no other layer',
      severity: 'error',
      from: { path: '^src/runtime-sim/' },
      to: { path: '^src/', pathNot: '^src/(api|streaming|runtime-sim)/|^src/agent/cri/(descriptor\\.ts$|generated/)' },
    },
    {
      name: 'handlers-see-the-registry',
      comment: 'the API server reaches storage only through the registry; the server factory (start.ts) alone opens it',
      severity: 'error',
      from: { path: '^src/apiserver/', pathNot: '^src/apiserver/start\\.ts$' },
      to: { path: '^src/storage/' },
    },
    {
      name: 'pure-layers-no-io',
      comment: 'api, schema, codec, patch and apply take data and return data: no disk, network, processes, threads or machine facts of their own',
      severity: 'error',
      from: { path: any(pure) },
      to: { dependencyTypes: ['core'], path: `^(node:)?(${io.join('|')})$` },
    },
    {
      name: 'pure-layers-no-require',
      comment: 'createRequire (node:module) reads files: in the pure layers only the lazy loaders of the generated tables beside them and of libraries (api/lazy-module.ts) use it',
      severity: 'error',
      from: { path: any(pure), pathNot: '^src/(schema/definitions|codec/protobuf/messages|api/lazy-module)\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(node:)?module$' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycles (type-only imports included); the code has none, so none is allowed',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every import resolves (a package imported is a package declared and installed)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-undeclared-packages',
      comment: 'src/ imports only packages package.json declares as dependencies',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'npm-dev'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // package subpaths (`@bufbuild/protobuf/wire`) resolve through their package's exports map
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'], exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
