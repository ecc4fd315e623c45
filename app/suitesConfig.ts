/**
 * vitest's options for the conformance suites when `conformance run` starts them against a target
 * (the project's own tests use vitest.config.ts). The engine passes them inline, with no config
 * file: vitest would otherwise bundle a config file on every run (about 0.3 s of CPU).
 */
import type { InlineConfig } from 'vitest/node';

/**
 * True in the installed package, which runs the JavaScript compiled into dist/ (scripts/build.mjs);
 * false in a clone and in the project's tests, which run the TypeScript sources.
 */
const COMPILED = !import.meta.url.endsWith('.ts');

/** The suffix of a suite file: `suites/<name>.suite.ts` in the sources, `.suite.js` compiled. */
export const SUITE_SUFFIX = COMPILED ? '.suite.js' : '.suite.ts';

export const SUITES_TEST_OPTIONS: InlineConfig = {
  include: [`suites/**/*${SUITE_SUFFIX}`],
  // The Allure runtime for core/allure.ts; the runner adds allure-vitest's reporter, which writes
  // <report dir>/allure-results.
  setupFiles: ['allure-vitest/setup'],
  testTimeout: 300_000,
  hookTimeout: 120_000,
  // Threads, not processes: the workers share the run's pacing state (RunContext `pacing`, shared memory).
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
  // content) between runs: a run of three operations takes 4.5 s instead of 6 s. The installed
  // package has nothing to transform (its suites are JavaScript, and what they import loads as it
  // is), and its folder may be read-only (installed by root, run by a user): no cache there.
  experimental: { fsModuleCache: !COMPILED },
};
