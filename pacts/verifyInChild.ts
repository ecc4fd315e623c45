/**
 * Runs verifyInteractions (pacts/verify.ts) in a child process whose standard output is dropped:
 * the native Pact verifier prints its progress and every mismatch (the target's answers, which may
 * hold personal data) straight to the process's standard output, past any masking. The child's
 * errors come back as one line.
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Verified, VerifyOptions } from './verifyTypes.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

export function verifyInChild(opts: Omit<VerifyOptions, 'reportDir'>): Promise<Verified> {
  return new Promise((resolve) => {
    const child = fork(join(HERE, 'verifyWorker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let answer: Verified | undefined;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('message', (m: Verified) => {
      answer = m;
    });
    child.on('exit', (code) => {
      const last = stderr.trim().split('\n').filter(Boolean).pop();
      resolve(
        answer ?? {
          problem: `Pact verification stopped (exit ${code})${last ? `: ${last.slice(0, 300)}` : ''}`,
        },
      );
    });
    child.send(opts);
  });
}
