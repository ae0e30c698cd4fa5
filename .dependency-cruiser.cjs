/**
 * The server's layers (docs/decisions/010-layers.md), checked by `npm run lint`:
 *   shared  <-  lib and db  <-  modules  <-  trpc, router, jobs, api, app, runtime  (the composition root)
 *                                                   <-  workers
 * Tests may reach across layers (an integration test runs the whole portal); product code may not.
 * A module reaches another only through its service entry points; routers and REST adapters reach
 * only their own module; nothing imports the workers; and there are no cycles.
 */
// Tests, the test kit, and the tables tests read (the authorization matrix).
const TESTS = ['\\.test\\.tsx?$', '\\.matrix\\.ts$', '^src/testing/', '^src/client/testing/'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles hide which layer depends on which; break the cycle by handing the dependency in.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-nothing-ours',
      severity: 'error',
      comment: 'src/shared is read by the server and the client alike; it imports only libraries and itself.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(server|client|workers|testing)/' },
    },
    {
      name: 'lib-imports-lib-db-shared',
      severity: 'error',
      comment: 'server/lib and server/db serve every module and import none of them; let the module or the composition root pass in what is needed.',
      from: { path: '^src/server/(lib|db)/', pathNot: TESTS },
      to: { path: '^src/(server/(?!lib/|db/)|client|workers|testing)' },
    },
    {
      name: 'modules-meet-through-services',
      severity: 'error',
      comment: 'A module uses another module only through its *.service.ts entry points, never its repository, router or REST adapter.',
      from: { path: '^src/server/modules/([^/]+)/', pathNot: TESTS },
      to: { path: '^src/server/modules/', pathNot: ['^src/server/modules/$1/', '\\.service\\.ts$'] },
    },
    {
      name: 'edges-reach-their-own-module',
      severity: 'error',
      comment: 'A tRPC router or REST adapter is a thin edge over its own module; what it needs from another module goes through that module\'s service in its own service.',
      from: { path: '^src/server/modules/([^/]+)/[^/]+\\.(router|rest)\\.ts$' },
      to: { path: '^src/server/modules/', pathNot: '^src/server/modules/$1/' },
    },
    {
      name: 'modules-below-the-root',
      severity: 'error',
      comment: 'Modules do not import the composition root (app, api, router, runtime, deps, trpc) (the tRPC procedure builders in trpc/ and the dependency type in deps.ts are theirs to use).',
      from: { path: '^src/server/modules/', pathNot: TESTS },
      to: { path: '^src/server/(app|api|router|jobs|runtime|spa|index)\\.ts$' },
    },
    {
      name: 'nothing-imports-workers',
      severity: 'error',
      comment: 'Workers import lib and modules, never the other way.',
      from: { path: '^src/(server|shared|client)/' },
      to: { path: '^src/workers/' },
    },
    {
      name: 'client-app-composes',
      severity: 'error',
      comment: 'The client\'s app/ composes features into routes; features, components, lib and config never import it.',
      from: { path: '^src/client/(features|components|lib|config)/' },
      to: { path: '^src/client/app/' },
    },
    {
      name: 'client-config-is-data',
      severity: 'error',
      comment: 'The route names and the route table are plain data the build and the server read under Node: they import only each other.',
      from: { path: '^src/client/config/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/client/config/' },
    },
    {
      name: 'production-code-skips-tests',
      severity: 'error',
      comment: 'The test kit and tests are not part of the product.',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
