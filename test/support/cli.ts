/**
 * Runs the real `conformance` command (no mocks of our own components): by default its entry
 * point (bin/cli.ts `main`, what the binary calls) in a process of the run pool that every test
 * file shares in `npm test` (test/support/runPoolService.ts), which has loaded the command once
 * instead of a Node start and ~3 s of module loading per command; or, with `{ spawn: true }` or
 * where no shared pool was provided, a child process of its own running bin/conformance.mjs.
 *
 * A pool process runs one command at a time, from the same folder (the clone's root, so relative
 * paths mean the same), with the environment of the process that started the pool plus the
 * command's variables, its output off a terminal, and everything the command changed in its
 * process (environment, exit code, working folder, signal handling) put back before the next
 * one. A test about the process itself (signals and Ctrl-C, which end the process; the entry
 * module; a closed pipe; a terminal; stdin) gives `{ spawn: true }` or spawns on its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunResults } from '../../core/results.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  timeoutMs?: number;
  /** Variables set for the command; one given as undefined is removed. */
  env?: NodeJS.ProcessEnv;
  /** A child process of its own running bin/conformance.mjs, for a test about the process itself. */
  spawn?: boolean;
}

/** One POST to the shared run pool (test/support/runPoolService.ts), answered with its JSON. */
export function postToPool<T>(url: string, body: unknown): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    // No time-out here: a job may wait in the queue for long, and the caller's own time-out bounds it.
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          res.statusCode === 200 ? resolvePromise(JSON.parse(text) as T) : reject(new Error(`run pool: ${text}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The shared pool's address inside a vitest test file of `npm test`, else undefined. */
async function sharedPool(): Promise<string | undefined> {
  try {
    // Imported here: this file is also loaded outside vitest's workers (the pool, scripts/soak.ts).
    const { inject } = await import('vitest');
    return inject('conformanceRunPool') || undefined;
  } catch {
    return undefined;
  }
}

const timedOut = (args: string[], ms: number, stdout = '', stderr = '') =>
  new Error(`conformance ${args.join(' ')} did not finish within ${ms} ms\n${stdout}\n${stderr}`);

/** CONFORMANCE_SELFTEST_SPAWN=1 spawns every command, as before the pool ran them (to compare). */
const SPAWN_ALWAYS = process.env.CONFORMANCE_SELFTEST_SPAWN === '1';

export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const pool = options.spawn || SPAWN_ALWAYS ? undefined : await sharedPool();
  if (!pool) return spawnCli(args, options);
  const ms = options.timeoutMs ?? 180000;
  // null removes a variable (JSON has no undefined).
  const env = {
    ...Object.fromEntries(Object.entries(options.env ?? {}).map(([k, v]) => [k, v ?? null])),
    FORCE_COLOR: '0',
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      postToPool<CliResult>(`${pool}/command`, { args, env }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(timedOut(args, ms)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function spawnCli(args: string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'conformance.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const ms = options.timeoutMs ?? 180000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(timedOut(args, ms, stdout, stderr));
    }, ms);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

export function reportDir(): string {
  return mkdtempSync(join(tmpdir(), 'conformance-test-'));
}

export function readResults(dir: string): RunResults {
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
}

/**
 * The command's entry point called in this process, for the cases that end before a run starts
 * (help, option checks): the same code as the binary without a Node start per case.
 */
export async function runInProcess(args: string[]): Promise<CliResult> {
  const { main } = await import('../../bin/cli.ts');
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) });
  return { code, stdout, stderr };
}
