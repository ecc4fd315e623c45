// The project's own tests: unit tests beside the code, the sandbox's tests, and the self-test that
// runs the suite against the clean sandbox and every named fault (test/).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{app,core,checks,generators,server,reports,spec,bin,test,scripts}/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 3,
    maxConcurrency: 3,
    reporters: ['default', './test/support/plainSummaryReporter.ts'],
  },
});
