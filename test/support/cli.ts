/**
 * Runs the real `conformance` command in a child process (no mocks of our own components).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunResults } from '../../core/results.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
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
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `conformance ${args.join(' ')} did not finish within ${options.timeoutMs ?? 180000} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 180000);
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
