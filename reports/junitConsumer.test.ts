/**
 * junit.xml as a common JUnit consumer reads it: Allure's JUnit XML reader (the one `allure
 * generate` uses for a JUnit results folder). One testcase per (operation, check) pair; a MUST
 * failure is a failed test whose text carries the message and the curl command.
 */
import type { RawTestResult, ResultsVisitor } from '@allurereport/reader-api';
import { BufferResultFile } from '@allurereport/reader-api';
import { junitXml } from '@allurereport/reader';
import { describe, expect, it } from 'vitest';
import { renderJunit } from './junitReport.ts';
import { FIXTURE_NAMES, loadFixture } from '../core/testSupport/resultsFixtures.ts';

async function consume(xml: string): Promise<{ ok: boolean; tests: RawTestResult[] }> {
  const tests: RawTestResult[] = [];
  const visitor = {
    visitTestResult: async (result: RawTestResult) => {
      tests.push(result);
    },
    visitAttachmentFile: async () => {},
    visitMetadata: async () => {},
    visitGlobals: async () => {},
  } as unknown as ResultsVisitor;
  const ok = await junitXml.read(visitor, new BufferResultFile(Buffer.from(xml, 'utf8'), 'junit.xml'));
  return { ok, tests };
}

describe('junit.xml in a common JUnit consumer (Allure JUnit reader)', () => {
  it.each(FIXTURE_NAMES)('%s: one test per (operation, check) pair', async (name) => {
    const run = loadFixture(name);
    const { ok, tests } = await consume(renderJunit(run));
    expect(ok).toBe(true);
    const pairs = new Set(run.results.map((r) => `${r.operation}.${r.check}`));
    expect(tests.map((t) => t.fullName).sort()).toEqual([...pairs].sort());
  });

  it('reads a MUST failure as failed, with its message and the curl command, and an error as broken', async () => {
    const run = loadFixture('failing');
    const { tests } = await consume(renderJunit(run));
    const byName = new Map(tests.map((t) => [t.fullName, t]));
    const fail = run.results.find((r) => r.status === 'fail' && r.level === 'MUST' && r.exchange !== undefined)!;
    const failed = byName.get(`${fail.operation}.${fail.check}`)!;
    expect(failed.status).toBe('failed');
    // The reader leaves entities undecoded; decode the five XML ones to compare with our text.
    const decode = (s = '') =>
      s
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&');
    expect(decode(failed.message)).toContain(fail.message.slice(0, 40));
    expect(decode(failed.trace)).toMatch(/curl --globoff/);
    expect(decode(failed.trace)).toContain('$CONFORMANCE_TOKEN');
    const error = run.results.find((r) => r.status === 'error')!;
    expect(byName.get(`${error.operation}.${error.check}`)?.status).toBe('broken');
    expect(tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
  });

  it('refuses what is not JUnit XML (the reader is not vacuous)', async () => {
    expect((await consume('<html><body>no</body></html>')).tests).toEqual([]);
  });
});
