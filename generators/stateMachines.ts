/**
 * Stateful sequences where the documents define state (issue 14, item 4): three model-based
 * state machines run as generated command sequences, shrunk to the shortest failing one and
 * replayable by seed and path.
 *
 * - `batch-cycle`: Document 1, 3 and 4.6-4.8 (list, get, acknowledge remittance batches);
 * - `patient-lifecycle`: Document 3, 4.4 (create, get, update, delete patients; conditions);
 * - `payor-maintenance`: Document 3, 4.5 (list, upsert, delete payors; set and delete services).
 *
 * @example
 * const sandbox = await TestSandbox.start(['ack-keeps-batch']);
 * const run = await runStateMachine('batch-cycle', sandbox, { numRuns: 20 });
 * // run.ok === false, run.counterexample e.g. ['ack pending[0]', 'list'], run.failure says why
 * const again = await runStateMachine('batch-cycle', sandbox, { seed: run.seed, path: run.path });
 * // again.ok === false: the same counterexample
 */
import { type BatchCycleFixtures, batchCycleMachine } from './stateMachineBatchCycle.ts';
import { type PatientLifecycleFixtures, patientLifecycleMachine } from './stateMachinePatientLifecycle.ts';
import { type PayorMaintenanceFixtures, payorMaintenanceMachine } from './stateMachinePayorMaintenance.ts';
import {
  type MachineAnswer,
  type MachineTarget,
  type RunOptions,
  type RunResult,
  runMachine,
} from './stateMachineRunner.ts';

export type { MachineAnswer, MachineRequest, MachineTarget, RunOptions, RunResult } from './stateMachineRunner.ts';

export const STATE_MACHINES = ['batch-cycle', 'patient-lifecycle', 'payor-maintenance'] as const;
export type StateMachineName = (typeof STATE_MACHINES)[number];

/** The fixtures of all machines (each reads its own). */
export type StateMachineFixtures = BatchCycleFixtures & PatientLifecycleFixtures & PayorMaintenanceFixtures;

/**
 * What the sandbox's test helper (server/testSupport.ts `TestSandbox`) offers, structurally, so
 * this file does not import the server: raw requests and its two kinds of token.
 */
export interface SandboxLike {
  request(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string },
  ): Promise<MachineAnswer>;
  token(): Promise<string>;
  userToken(): Promise<string>;
}

/** A provider state of the sandbox's catalogue: its setup resets the data to the seed (tokens survive). */
const RESET_STATE = 'a member who matches once';

/**
 * A target over the sandbox helper: the client token (sandbox-client, site SITE001) or alice's
 * user token per request, and a reset through the provider-state endpoint before each sequence,
 * so every sequence, shrink and replay starts from the seed data.
 */
export function sandboxTarget(sandbox: SandboxLike, options: { reset?: boolean } = {}): MachineTarget {
  return {
    call: async (method, path, init) => {
      const token = init.credential === 'user' ? await sandbox.userToken() : await sandbox.token();
      return sandbox.request(method, path, {
        headers: { ...init.headers, authorization: `Bearer ${token}` },
        ...(init.body === undefined ? {} : { body: init.body }),
      });
    },
    ...(options.reset === false
      ? {}
      : {
          reset: async () => {
            const a = await sandbox.request('POST', '/_pact/provider-states', {
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ state: RESET_STATE, params: {}, action: 'setup' }),
            });
            if (a.status !== 200) throw new Error(`Expected the sandbox reset to answer 200, received ${a.status}`);
          },
        }),
  };
}

const isTarget = (t: MachineTarget | SandboxLike): t is MachineTarget => 'call' in t;

/**
 * Runs one state machine against a target (or the sandbox helper, reset before each sequence).
 * Resolves `ok` with the seed, or the shrunk counterexample (the commands in the order they ran),
 * why it failed, and the `seed` and `path` that replay it.
 */
export async function runStateMachine(
  name: StateMachineName,
  target: MachineTarget | SandboxLike,
  options: RunOptions & { fixtures?: StateMachineFixtures } = {},
): Promise<RunResult> {
  const t = isTarget(target) ? target : sandboxTarget(target);
  const fixtures = options.fixtures ?? {};
  switch (name) {
    case 'batch-cycle':
      return runMachine(batchCycleMachine(fixtures), t, options);
    case 'patient-lifecycle':
      return runMachine(patientLifecycleMachine(fixtures), t, options);
    case 'payor-maintenance':
      return runMachine(payorMaintenanceMachine(fixtures), t, options);
  }
}
