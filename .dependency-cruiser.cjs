/** Tests beside the code may use the contract suites and helpers in test/. */
const TESTS = '\\.test\\.ts$';

/**
 * The dependency direction of ARCHITECTURE.md, enforced by `npm run deps:check` (part of `npm run check`).
 * core imports nothing of ours; plugins import core only and never each other; workers/tasks import core
 * (model plugins arrive by module specifier at run time); server imports core and workers/pool; cli imports
 * core and plugins/adapters; no cycles anywhere. Composition roots (server/composition.ts, cli/main.ts) may name
 * concrete plugins.
 */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^core/', pathNot: TESTS },
      to: { path: '^(plugins|server|workers|cli|console|bench|test)/' },
    },
    {
      name: 'plugins-import-the-kit-only',
      comment:
        'Built-in plugins use the public plugin kit, as third-party plugins must; the catalogues (index.ts) take the registry from core.',
      severity: 'error',
      from: { path: '^plugins/', pathNot: [TESTS, '^plugins/(index|models/index)\\.ts$'] },
      to: { path: '^(core|server|workers|cli|console|bench|test)/' },
    },
    {
      name: 'kit-imports-core',
      comment:
        'The kit re-exports core; its contract suites also drive the worker pool, as the service does.',
      severity: 'error',
      from: { path: '^kit/', pathNot: TESTS },
      to: { path: '^(plugins|server|cli|console|bench|test)/|^workers/tasks/' },
    },
    {
      name: 'core-does-not-import-the-kit',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^kit/' },
    },
    {
      name: 'plugin-imports-another-plugin',
      severity: 'error',
      // A kind's index.ts (plugins/adapters/index.ts) is its catalogue of built-ins, not a plugin.
      from: { path: '^plugins/([^/]+)/([^/.]+)', pathNot: '^plugins/[^/]+/index\\.ts$' },
      to: { path: '^plugins/', pathNot: ['^plugins/$1/$2[/.]', '^plugins/$1/shared/'] },
    },
    {
      name: 'plugin-index-is-for-composition-roots',
      severity: 'error',
      from: { path: '^(core|plugins|workers)/', pathNot: TESTS },
      to: { path: '^plugins/index\\.ts$' },
    },
    {
      name: 'workers-import-core-only',
      severity: 'error',
      from: { path: '^workers/', pathNot: TESTS },
      to: { path: '^(plugins|server|cli|console|bench|test)/' },
    },
    {
      name: 'server-imports-core-and-pool',
      severity: 'error',
      from: { path: '^server/', pathNot: ['^server/composition\\.ts$', TESTS] },
      to: { path: '^(plugins|cli|console|bench|test)/|^workers/tasks/' },
    },
    {
      name: 'cli-imports-core-and-adapters',
      severity: 'error',
      from: { path: '^cli/', pathNot: ['^cli/main\\.ts$', TESTS] },
      to: { path: '^(server|workers|console|bench|test)/|^plugins/(models|storage)/' },
    },
    {
      name: 'cli-imports-core-modules-not-its-index',
      comment:
        "core's index also loads the logger, the configuration, JWT and the statistics: about half a second of every CLI command's start.",
      severity: 'error',
      from: { path: '^cli/', pathNot: TESTS },
      to: { path: '^core/index\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'console-talks-http-only',
      comment:
        'The console (app and host) reaches the API over HTTP only; from core it takes wire types, erased at build.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(server|plugins|workers|cli|bench|test)/' },
    },
    {
      name: 'console-takes-only-types-from-core',
      severity: 'error',
      from: { path: '^console/', pathNot: TESTS },
      to: { path: '^core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-imports-the-console',
      severity: 'error',
      from: { path: '^(core|plugins|workers|server|cli)/' },
      to: { path: '^console/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
