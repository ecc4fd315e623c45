/**
 * vitest's options for the conformance suites when `conformance run` starts them against a target
 * (the project's own tests use vitest.config.ts). The engine passes them inline, with no config
 * file: vitest would otherwise bundle a config file on every run (about 0.3 s of CPU).
 */
import type { InlineConfig } from 'vitest/node';

export const SUITES_TEST_OPTIONS: InlineConfig = {
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
  // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache, keyed by
  // content) between runs: a run of three operations takes 4.5 s instead of 6 s.
  experimental: { fsModuleCache: true },
};
