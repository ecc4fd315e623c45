// Configuration of the conformance suites when `conformance run` starts them against a target.
// (The project's own tests use vitest.config.ts.)
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['suites/**/*.suite.ts'],
    // The Allure runtime for core/allure.ts; the runner adds allure-vitest's reporter, which writes
    // <report dir>/allure-results.
    setupFiles: ['allure-vitest/setup'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'threads',
    maxWorkers: 2,
    // Suite files share their worker's module cache: the schemas are compiled, and the harness set
    // up, once per worker instead of once per file. Suites keep no state between files that
    // another file could see (a run with the same seed gives the same results either way: 1871
    // results, identical per operation, check, status and level), and a full run against the
    // sandbox takes 12.6 s instead of 31.9 s (CPU 19 s instead of 51 s).
    isolate: false,
    passWithNoTests: true,
  },
});
