/**
 * A regression of one cause on a second operation (issue 30, items 6 and 7): the baseline run's
 * server drops Bundle `type` from List hospital claims; the later server drops it from Search
 * hospital claims too. The cause is the same (matches-schema: a required `type` missing), but on
 * another operation it is a new finding: `--fail-on new` exits 1 and the finding is marked new
 * on search-hospital-claims. The same later run as its own baseline has nothing new and exits 0.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

const ONLY = 'list-hospital-claims,search-hospital-claims';
const ON_LIST = 'shape:list-hospital-claims:/type:missing';
const ON_SEARCH = 'shape:search-hospital-claims:/type:missing';
let url = '';
let port = 0;
let before = '';
let after = '';

async function runAgainst(faults: readonly string[], dir: string, extra: string[] = []) {
  const sandbox = await startSandbox({ port, faults });
  try {
    return await runCli(
      ['run', '--target', url, '--only', ONLY, '--report-dir', dir, '--seed', '7', '--runs', '2', ...extra],
      { timeoutMs: 240_000 },
    );
  } finally {
    await sandbox.close();
  }
}

beforeAll(async () => {
  const probe = await startSandbox();
  url = probe.url;
  port = Number(new URL(url).port);
  await probe.close();
  before = reportDir();
  after = reportDir();
  expect((await runAgainst([ON_LIST], before)).code).toBe(1);
  expect((await runAgainst([ON_LIST, ON_SEARCH], after)).code).toBe(1);
}, 600_000);

describe('--baseline --fail-on new, one cause on a second operation', () => {
  test('is a new finding there: exit 1, marked new on the second operation', async () => {
    const dir = reportDir();
    const r = await runAgainst([ON_LIST, ON_SEARCH], dir, ['--baseline', before, '--fail-on', 'new']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const baseline = readResults(dir).baseline;
    expect(Object.values(baseline?.newOn ?? {})).toContainEqual(['search-hospital-claims']);
    expect(r.stdout).toMatch(/\[new on search-hospital-claims\] FAIL matches-schema/);
  }, 300_000);

  test('the later run as its own baseline has nothing new: exit 0', async () => {
    const dir = reportDir();
    const r = await runAgainst([ON_LIST, ON_SEARCH], dir, ['--baseline', after, '--fail-on', 'new']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readResults(dir).baseline?.new).toEqual([]);
  }, 300_000);
});
