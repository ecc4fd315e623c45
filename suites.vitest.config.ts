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
    isolate: true,
    passWithNoTests: true,
  },
});
