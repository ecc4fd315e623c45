/**
 * The layering of DESIGN.md, checked in `npm test` (issue 10): dependencies point one way, and no
 * import cycle exists, type-only imports included.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-the-bottom',
      severity: 'error',
      comment: 'core/ is the harness: it never imports checks, suites, reports, the sandbox or the app layer.',
      from: { path: '^core/' },
      to: { path: '^(checks|suites|reports|server|app|cli|bin)/' },
    },
    {
      name: 'checks-below-suites',
      severity: 'error',
      comment: 'A check reads an exchange; it never imports suites, reports, the sandbox or the app layer.',
      from: { path: '^checks/' },
      to: { path: '^(suites|reports|server|app|cli|bin)/' },
    },
    {
      name: 'reports-consume-results',
      severity: 'error',
      comment: 'Reporters read results and events; they never import suites, checks, the sandbox or the app layer.',
      from: { path: '^reports/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(suites|checks|server|app|cli|bin)/' },
    },
    {
      name: 'sandbox-stands-alone',
      severity: 'error',
      comment: 'The sandbox never imports the suite (suites, checks, reports, the app layer).',
      from: { path: '^server/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(suites|checks|reports|app|cli|bin)/' },
    },
    {
      name: 'reference-sandbox-knows-no-deviation',
      severity: 'error',
      comment:
        'The routers, resources and repository are the reference behaviour alone: faults and variants are modifiers around them (server/faults, server/variants), never consulted inside.',
      from: { path: '^server/(router|resources|repo|fixtures)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/(faults|variants)/' },
    },
    {
      name: 'openapi-is-generated-from-data',
      severity: 'error',
      comment:
        'The OpenAPI export is generated from spec/ and schemas/ (and the sandbox addresses); the sandbox serves it, so it never imports the rest of the sandbox, nor the suite.',
      from: { path: '^openapi/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(suites|checks|reports|app|cli|bin|server)/', pathNot: '^server/router/addresses\\.ts$' },
    },
    {
      name: 'spec-is-data',
      severity: 'error',
      comment: 'spec/ and schemas/ are data every layer reads; they import nothing of the layers.',
      from: { path: '^(spec|schemas)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(core|checks|suites|reports|server|app|cli|bin|generators)/' },
    },
    {
      name: 'nothing-imports-the-service',
      severity: 'error',
      comment:
        'The certification service (service/) composes the layers; nothing imports it but the command layer (cli/), the tests and its benchmarks (scripts/serviceLoad.ts, scripts/dbBench.ts).',
      from: { pathNot: '^(service/|cli/|test/|scripts/(serviceLoad|dbBench)\\.ts$)' },
      to: { path: '^service/' },
    },
    {
      name: 'service-composes-layers',
      severity: 'error',
      comment:
        'The service composes app, certify, pacts and the harness; of the sandbox it reads the demo config alone (a product without a config of its own), and it never imports the CLI.',
      from: { path: '^service/', pathNot: '^service/testSupport/' },
      to: { path: '^(cli/|bin/|server/(?!demoConfig\\.ts$|fixtures/))' },
    },
    {
      name: 'cli-is-the-top-floor',
      severity: 'error',
      comment:
        'The command layer (cli/, one file per subcommand) may import every layer; only the executable (bin/) and the tests import it (issue 34).',
      from: { pathNot: '^(cli/|bin/|test/)|\\.test\\.ts$' },
      to: { path: '^cli/' },
    },
    {
      name: 'the-run-engine-is-below-its-users',
      severity: 'error',
      comment:
        'app/ is the run engine: pacts/, certify/ and service/ compose it, so it never imports them (nor the command layer above).',
      from: { path: '^app/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(pacts|certify|service|cli|bin)/' },
    },
    {
      name: 'pacts-and-certify-below-the-service',
      severity: 'error',
      comment: 'pacts/ and certify/ compose the run engine; they never import the service or the command layer.',
      from: { path: '^(pacts|certify)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(service|cli|bin)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test-output|conformance-report)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js', '.json'] },
  },
};
