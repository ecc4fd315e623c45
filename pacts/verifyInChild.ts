/**
 * Runs verifyInteractions (pacts/verify.ts) in a child process whose standard output is dropped:
 * the native Pact verifier prints its progress and every mismatch (the target's answers, which may
 * hold personal data) straight to the process's standard output, past any masking. The child's
 * errors come back as one line.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { UnarrangedState } from './providerStates.ts';
import type { Verified, VerifyOptions } from './verifyTypes.ts';

/** What the child verifies: the options of `pact verify`, and what `pact check` knows of its sandbox. */
export interface ChildVerifyOptions extends Omit<VerifyOptions, 'reportDir'> {
  /**
   * States (by name and params) the target is known not to arrange (the sandbox of `pact check`,
   * pacts/providerStates.ts `arrangeStates`): their interactions are not verified, for that reason.
   */
  unarrangedStates?: readonly UnarrangedState[];
  /**
   * The target holds each state's data under the pact's own params (the sandbox of `pact check`):
   * Pact injects the params, over the values the state endpoint answers with its examples.
   */
  paramsArranged?: boolean;
}

const OWN_FILE = fileURLToPath(import.meta.url);

/**
 * How the child runs verifyWorker: the compiled module of the installed package as it is; the
 * TypeScript source (a clone) through tsx, resolved from this project and never from the working
 * folder, which may hold no tsx at all.
 */
function workerLaunch(): { module: string; execArgv: string[] } {
  const ext = extname(OWN_FILE);
  const module = join(dirname(OWN_FILE), `verifyWorker${ext}`);
  if (ext !== '.ts') return { module, execArgv: [] };
  return { module, execArgv: ['--import', pathToFileURL(createRequire(OWN_FILE).resolve('tsx')).href] };
}

/**
 * The child's environment: this one, with the config's connection settings where the verifier's
 * forwarding reads them (pacts/forwarding.ts); a config or setting problem is the one line.
 */
async function childEnvironment(opts: ChildVerifyOptions): Promise<{ env: NodeJS.ProcessEnv } | { problem: string }> {
  const [{ ConfigError, loadConfig }, { ForwardingProblem, forwardingEnvironment }] = await Promise.all([
    import('../core/config.ts'),
    import('./forwarding.ts'),
  ]);
  try {
    const config = loadConfig({ file: opts.config, target: opts.target, fallbacks: opts.environmentFallbacks });
    return { env: forwardingEnvironment(config.http, new URL(config.target), process.env) };
  } catch (e) {
    if (e instanceof ConfigError || e instanceof ForwardingProblem) return { problem: e.message };
    throw e;
  }
}

export async function verifyInChild(opts: ChildVerifyOptions): Promise<Verified> {
  const prepared = await childEnvironment(opts);
  if ('problem' in prepared) return prepared;
  return new Promise((resolve) => {
    const launch = workerLaunch();
    const child = fork(launch.module, [], {
      execArgv: launch.execArgv,
      env: { ...prepared.env, PACT_DO_NOT_TRACK: 'true' },
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
