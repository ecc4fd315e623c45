// The project's own tests: unit tests beside the code, the sandbox's tests, and the self-test that
// runs the suite against the clean sandbox and every named fault (test/).
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';
import { patient } from './test/support/patience.ts';
import { excludedInTier, TIER } from './test/support/tiers.ts';

/**
 * The longest files first (they are mostly runs of the suite that wait on each other), so that the
 * short ones fill the gaps instead of one long file running alone at the end. vitest orders by the
 * durations it cached on this machine; a fresh clone (CI) has none.
 */
const LONGEST_FIRST = [
  'test/variants.test.ts',
  'test/faults.test.ts',
  'test/package.test.ts',
  'test/variantProbes.test.ts',
  'test/compare.test.ts',
  'test/hostile.test.ts',
  'test/serviceRestart.test.ts',
  'pacts/verify.test.ts',
  'test/cliManners.test.ts',
  'test/serviceHostile.test.ts',
  'test/citationsListOperation.test.ts',
  'test/tls.test.ts',
  'test/serviceWalk.browser.test.ts',
  'test/serviceCertificates.test.ts',
  'test/gateway.test.ts',
  'test/cli.test.ts',
  'test/shard.test.ts',
  'test/cleanSandbox.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    const sorted = await super.sort(files);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: [
      '{app,core,checks,generators,server,reports,spec,bin,test,scripts,openapi,pacts,certify,examples}/**/*.test.ts',
      'suites/common/*.test.ts',
    ],
    // `npm test` leaves the long files to `npm run test:full` (CI): test/support/tiers.ts.
    exclude: [...configDefaults.exclude, ...excludedInTier(TIER)],
    // One pool of run processes for every test file's runs (the fault and variant batches, the
    // gateway's and the fixtures' commands): the runner is loaded by a few processes once.
    // ... and no process a test started outlives the run (test/support/leftovers.ts).
    globalSetup: ['./test/support/runPoolService.ts', './test/support/leftovers.ts'],
    // Scaled by the machine's load at the start (test/support/patience.ts): 1 to 4 minutes.
    testTimeout: patient(60_000),
    hookTimeout: patient(60_000),
    pool: 'forks',
    // Test files share their worker's module cache (no test relies on a fresh module state): the
    // imports, 70 s of a full run when every file imported its own, are paid once per worker.
    isolate: false,
    // Most of the time goes to child processes that wait on HTTP: four files at a time keep both
    // cores busy.
    maxWorkers: 4,
    maxConcurrency: 3,
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/support/plainSummaryReporter.ts'],
  },
});
