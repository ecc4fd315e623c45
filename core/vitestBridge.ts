/**
 * A vitest reporter that turns suite crashes (a test that threw for a reason other than a
 * recorded MUST failure) into `error` results, so that a broken suite never looks conformant.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { WorkerResult } from './events.ts';

const RECORDED = '[conformance]';

export class SuiteCrashCollector implements Reporter {
  readonly results: WorkerResult[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state !== 'failed') return;
    const errors = (result.errors ?? []).filter((e) => !String(e.message ?? '').startsWith(RECORDED));
    if (errors.length === 0) return;
    const operation = topSuiteName(testCase);
    this.results.push({
      check: 'suite-ran',
      summary: 'The suite could run its steps',
      operation,
      requirements: [],
      level: 'MUST',
      status: 'error',
      message: `The suite step "${testCase.name}" stopped: ${String(errors[0].message ?? 'unknown error').split('\n')[0]}`,
      test: testCase.fullName,
    });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const m of modules) {
      const errors = m.errors();
      if (errors.length === 0) continue;
      this.results.push({
        check: 'suite-ran',
        summary: 'The suite could run its steps',
        operation: m.moduleId.split('/').pop()?.replace('.suite.ts', '') ?? 'unknown',
        requirements: [],
        level: 'MUST',
        status: 'error',
        message: `The suite file could not run: ${String(errors[0].message ?? 'unknown error').split('\n')[0]}`,
      });
    }
  }
}

function topSuiteName(testCase: TestCase): string {
  let parent = testCase.parent;
  let name = '';
  while (parent && parent.type === 'suite') {
    name = parent.name;
    parent = parent.parent;
  }
  return name || testCase.module.moduleId;
}
