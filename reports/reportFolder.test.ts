import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { claimReportFolder, heldReportFolder, LOCK_FILE, makeFolder, ReportFolderError } from './reportFolder.ts';

const fresh = () => mkdtempSync(join(tmpdir(), 'report-folder-'));
const ours = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.conformance-'));
const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };
const writeLock = (dir: string, pid: number, host = hostname()) =>
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid, host, startedAt: '2020-01-01T00:00:00.000Z' }));
/** The id of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

describe('claimReportFolder', () => {
  test('makes the folder, locks it with this process, stages inside it; commit moves the report into place', () => {
    const dir = join(fresh(), 'a', 'b');
    const claim = claimReportFolder(dir);
    expect(lockOf(dir).pid).toBe(process.pid);
    expect(heldReportFolder(dir)).toBe(claim);
    expect(claim.staging.startsWith(join(dir, '.conformance-staging-'))).toBe(true);
    writeFileSync(join(claim.staging, 'results.json'), '{"run":1}');
    mkdirSync(join(claim.staging, 'allure-results'));
    writeFileSync(join(claim.staging, 'allure-results', 'a.json'), '{}');
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
    claim.commit();
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('{"run":1}');
    expect(readdirSync(join(dir, 'allure-results'))).toEqual(['a.json']);
    expect(ours(dir)).toEqual([]);
    expect(heldReportFolder(dir)).toBeUndefined();
  });

  test("the previous run's artefacts are replaced or removed, never mixed in; other files stay", () => {
    const dir = fresh();
    for (const f of ['results.json', 'report.html', 'junit.xml', 'notes.txt']) writeFileSync(join(dir, f), 'old');
    mkdirSync(join(dir, 'allure-results'));
    writeFileSync(join(dir, 'allure-results', 'old.json'), '{}');
    mkdirSync(join(dir, 'allure-report'));
    const claim = claimReportFolder(dir);
    writeFileSync(join(claim.staging, 'results.json'), 'new');
    mkdirSync(join(claim.staging, 'allure-results'));
    writeFileSync(join(claim.staging, 'allure-results', 'new.json'), '{}');
    claim.commit();
    expect(readdirSync(dir).sort()).toEqual(['allure-results', 'notes.txt', 'results.json']);
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('new');
    expect(readdirSync(join(dir, 'allure-results'))).toEqual(['new.json']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('old');
  });

  test('a claim kept after its commit: the report moves into place and the folder stays locked until release', () => {
    const dir = fresh();
    const claim = claimReportFolder(dir, dir, { keepAfterCommit: true });
    writeFileSync(join(claim.staging, 'results.json'), '{"run":1}');
    claim.commit();
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('{"run":1}');
    expect(lockOf(dir).pid).toBe(process.pid);
    expect(heldReportFolder(dir)).toBe(claim);
    expect(ours(dir)).toEqual([LOCK_FILE]);
    expect(claim.committed).toBe(true);
    expect(() => claimReportFolder(dir)).toThrow(ReportFolderError);
    expect(() => claim.commit()).toThrow(/committed or released already/);
    claim.release();
    expect(ours(dir)).toEqual([]);
    expect(heldReportFolder(dir)).toBeUndefined();
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('{"run":1}');
  });

  test('release leaves the folder as it was', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'results.json'), 'old');
    const claim = claimReportFolder(dir);
    writeFileSync(join(claim.staging, 'results.json'), 'new');
    claim.release();
    claim.release();
    expect(readdirSync(dir)).toEqual(['results.json']);
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toBe('old');
    expect(() => claim.commit()).toThrow(/committed or released already/);
  });

  test('a folder this process holds is refused, naming the holder', () => {
    const dir = fresh();
    const claim = claimReportFolder(dir);
    expect(() => claimReportFolder(dir)).toThrow(
      new RegExp(`is in use by another run \\(process ${process.pid}, started ${claim.owner.startedAt}\\)`),
    );
    claim.release();
    claimReportFolder(dir).release();
  });

  const children: { kill: () => void }[] = [];
  afterAll(() => {
    for (const c of children) c.kill();
  });

  test("another running process's lock is refused, and left in place", () => {
    const dir = fresh();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
    children.push(other);
    writeLock(dir, other.pid as number);
    expect(() => claimReportFolder(dir, 'DIR')).toThrow(
      new RegExp(`^DIR is in use by another run \\(process ${other.pid}, started 2020-01-01T00:00:00.000Z\\)`),
    );
    expect(lockOf(dir).pid).toBe(other.pid);
    expect(ours(dir)).toEqual([LOCK_FILE]);
  });

  test('a lock from another machine cannot be judged stale: refused, naming the machine', () => {
    const dir = fresh();
    writeLock(dir, deadPid(), 'build-agent-7');
    expect(() => claimReportFolder(dir, 'DIR')).toThrow(/in use by another run \(process \d+ on build-agent-7, /);
  });

  test("a dead process's lock, or an unreadable one, is taken over with what that process left", () => {
    for (const content of ['stale', 'garbled']) {
      const dir = fresh();
      const dead = deadPid();
      if (content === 'stale') writeLock(dir, dead);
      else writeFileSync(join(dir, LOCK_FILE), '{"pid":');
      mkdirSync(join(dir, `.conformance-staging-${dead}-x1y2z3`));
      writeFileSync(join(dir, `${LOCK_FILE}.${dead}.abc`), '');
      const claim = claimReportFolder(dir);
      expect(lockOf(dir).pid).toBe(process.pid);
      expect(ours(dir).sort()).toEqual([LOCK_FILE, claim.staging.split('/').pop()].sort());
      claim.release();
      expect(ours(dir)).toEqual([]);
    }
  });

  test.each([
    ['/proc/x', /^\/proc\/x cannot be made: .*\(ENOENT\)$/],
    [join(import.meta.dirname, 'reportFolder.ts'), /reportFolder\.ts is a file, not a folder$/],
    [join(import.meta.dirname, 'reportFolder.ts', 'x', 'y'), /lies under a file \(.*reportFolder\.ts\), not a folder$/],
    ['', /^must not be empty$/],
  ])('%j is refused with one line', (dir, message) => {
    if (dir.startsWith('/proc') && !existsSync('/proc')) return;
    let error: unknown;
    try {
      claimReportFolder(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReportFolderError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('makeFolder', () => {
  test('makes the missing levels, and accepts a folder that exists', () => {
    const dir = join(fresh(), 'x', 'y', 'z');
    makeFolder(dir);
    makeFolder(dir);
    expect(existsSync(dir)).toBe(true);
  });
});
