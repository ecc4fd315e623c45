// The conformance suites' vitest configuration, for tools that look for a config file (an editor's
// vitest extension). `conformance run` passes the same options inline (app/suitesConfig.ts).
import { defineConfig } from 'vitest/config';
import { SUITES_TEST_OPTIONS } from './app/suitesConfig.ts';

export default defineConfig({ test: SUITES_TEST_OPTIONS });
