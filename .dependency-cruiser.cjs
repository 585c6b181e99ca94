/**
 * The import rules of the code (`npm run lint` runs them):
 * - no cycles between files;
 * - shared/ is isomorphic: it imports nothing of the server, the renderer or the Electron main process;
 * - the renderer and main/ never import the server;
 * - inside sync-server/, a layer imports only layers below it (see LAYERS).
 */

/**
 * sync-server/ layers, bottom first. A file in layer i may import files of layers 0..i
 * (its own layer included, cycles aside); a path not listed here is a violation of its own.
 */
const LAYERS = [
  // 0. primitives: settings, time, URLs, mail transport, errors, ids, paging
  [
    '^sync-server/(config|clock|urls|mail)\\.ts$',
    '^sync-server/http/(errors|ids|paging|etag|compression|schemas|validation|json-body|rate-limiter|limits|text-guard|route-hooks)\\.ts$',
  ],
  // 1. storage: Db, migrations, repositories (SQL + row types), read cache, blobs and file storage
  ['^sync-server/store/'],
  // 2. who the caller is: tokens, principals, users
  ['^sync-server/identity/'],
  // 3. who may do what: pure decisions (see the policy-is-pure rule)
  ['^sync-server/policy/'],
  // 4. the facts policy decides on, loaded through the store
  ['^sync-server/access/'],
  // 5. transports and workers that know nothing of documents (markdown/: the parse pool;
  //    integration-sandbox/: integration scripts run in QuickJS)
  ['^sync-server/(fanout|outbound|markdown|integration-sandbox)/'],
  // 6. the collaboration core
  ['^sync-server/docs/'],
  // 7. domains built on documents and storage
  [
    '^sync-server/(search|jobs|sites|openapi-specs|import|templates|computed-content|git-sync|translation|integrations)/',
  ],
  // 8. the context handed to HTTP modules
  ['^sync-server/context\\.ts$'],
  // 9. HTTP modules (the API and published sites never import each other: see the rules below)
  [
    '^sync-server/(api|published-site|pdf|observability)/',
    '^sync-server/http/(auth|error-handler|rate-limit|protocol-errors|security-headers)\\.ts$',
    '^sync-server/web-app\\.ts$',
  ],
  // 10. wiring and entry points
  ['^sync-server/(app|server|main|compiled-main|cli|cli-domains|cli-blobs|prepare)\\.ts$'],
];

const layerRules = LAYERS.flatMap((patterns, i) =>
  LAYERS.slice(i + 1).map((higher, j) => ({
    name: `layer-${i}-imports-layer-${i + 1 + j}`,
    comment: `sync-server layer ${i} (${patterns.join(' ')}) must not import the higher layer ${i + 1 + j}`,
    severity: 'error',
    from: { path: patterns },
    to: { path: higher },
  })),
);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'files must not import each other in a cycle (type-only imports vanish at build, and a lazy ' +
        "import() runs after every module has loaded: neither can cause a cycle's load-order bugs)",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'shared-is-isomorphic',
      severity: 'error',
      comment: 'shared/ is used by the server and the renderer alike; it imports neither',
      from: { path: '^shared/' },
      to: { path: '^(sync-server|renderer|main)/' },
    },
    {
      name: 'client-never-imports-server',
      severity: 'error',
      from: { path: '^(renderer|main)/' },
      to: { path: '^sync-server/' },
    },
    {
      name: 'unlayered-server-file',
      severity: 'error',
      comment: 'every sync-server file belongs to a layer of .dependency-cruiser.cjs',
      from: { path: '^sync-server/', pathNot: LAYERS.flat() },
      to: {},
    },
    {
      name: 'policy-is-pure',
      severity: 'error',
      comment:
        'policy/ decides from facts it is given: it runs no query and knows no HTTP (types of store rows are fine)',
      from: { path: '^sync-server/policy/' },
      to: { path: '^sync-server/', pathNot: '^sync-server/policy/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'policy-imports-only-store-types',
      severity: 'error',
      from: { path: '^sync-server/policy/' },
      to: { path: '^sync-server/', pathNot: '^sync-server/(policy|store)/' },
    },
    {
      name: 'published-site-is-not-api',
      severity: 'error',
      comment: 'published sites and the REST API share the sites/ domain, not each other',
      from: { path: '^sync-server/published-site/' },
      to: { path: '^sync-server/(api|pdf)/' },
    },
    {
      name: 'api-is-not-published-site',
      severity: 'error',
      from: { path: '^sync-server/(api|pdf)/' },
      to: { path: '^sync-server/published-site/' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|out|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
