/**
 * One claimed client certification: the workspaces of its scenarios started as
 * `conformance certify-client` starts them (certify/certification.ts), what the partner's client
 * must use written into the run's progress (the credentials sealed with the service key) so the
 * workspace page shows them, then a wait until every scenario has ended, the partner asks to
 * finish (POST /runs/:runId/finish sets `finishRequestedAt` in the run's input; the worker may
 * be another process, so it reads the row), or the time-out; then every request is judged
 * (Certification.finish, the command's judging) into the sealed report, signed and stored like a
 * server run's, with the certificate it earns (service/certificates.ts). A worker that stops gives
 * the run back to the queue, as a server run's does.
 */
import { join } from 'node:path';
import type { Certification, Ending, ScenarioRun } from '../../certify/certification.ts';
import type { Attestation } from '../../core/results.ts';
import type { ServiceContext, ServiceSettings } from '../context.ts';
import { type Claim, failRun, keepLease, recordProgress, releaseRun } from './claims.ts';
import { finishSigned } from './finishSigned.ts';

/** Where the workspaces listen when the operator sets nothing (`workspaceHost` of the settings). */
export const DEFAULT_WORKSPACE_HOST = '127.0.0.1';

/** How often the worker looks at the workspaces and at the run's row. */
const POLL_MS = 250;
/** A scenario that may stop there (after a refusal) is ended once its client has been quiet this long (as the command). */
const QUIET_MS = 2000;

/** What a client run was started with (runs.input). */
export interface ClientRunInput {
  /** Scenario ids; absent: every scenario. */
  scenarios?: string[];
  timeoutSeconds: number;
  /** Set by the partner's "Finish and judge": the worker judges what was done so far. */
  finishRequestedAt?: string;
}

/** A workspace as the run's progress holds it (secrets apart, sealed). */
export interface WorkspaceView {
  scenario: string;
  title: string;
  instructions: string[];
  /** The services the scenario's operations belong to (the discovery documents the client needs). */
  services: string[];
  discovery: Record<string, string>;
  tokenUrl: string;
  clientId: string;
  siteId: string;
  username: string;
  idp: { name: string; redirectUri: string };
  ending?: Ending;
  requests: number;
}

/** A client run's progress: the shape of a server run's (done, total, running) and its workspaces. */
export interface ClientProgress {
  done: number;
  total: number;
  running: string[];
  kind: 'client';
  startedAt: string;
  timeoutSeconds: number;
  workspaces: WorkspaceView[];
  /** `{ [scenario]: { clientSecret, password } }`, sealed with the service key (ctx.box). */
  sealed: string;
}

export function workspaceHostOf(settings: ServiceSettings): string {
  const host = settings.workspaceHost;
  return host !== undefined && host !== '' ? host : DEFAULT_WORKSPACE_HOST;
}

export function parseClientInput(text: string | null): ClientRunInput {
  const input = (text ? JSON.parse(text) : {}) as Partial<ClientRunInput>;
  return {
    ...(Array.isArray(input.scenarios) && input.scenarios.length > 0 ? { scenarios: input.scenarios.map(String) } : {}),
    timeoutSeconds: typeof input.timeoutSeconds === 'number' ? input.timeoutSeconds : 600,
    ...(typeof input.finishRequestedAt === 'string' ? { finishRequestedAt: input.finishRequestedAt } : {}),
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export async function performClientRun(ctx: ServiceContext, claim: Claim, stopping: AbortSignal): Promise<void> {
  let earlier: string | null = null;
  const fail = (problem: string) => failRun(ctx, claim, problem, earlier);
  const stopLease = keepLease(ctx, claim);
  let cert: Certification | undefined;
  try {
    const run = await ctx.db.selectFrom('runs').selectAll().where('id', '=', claim.runId).executeTakeFirstOrThrow();
    earlier = run.problem;
    const product = await ctx.db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', run.product_id)
      .executeTakeFirstOrThrow();
    const input = parseClientInput(run.input);
    const attestation = (product.attestation ? JSON.parse(product.attestation) : {}) as Attestation;
    const [{ startCertification, UnknownScenarioError, settledEnding }, { operation }] = await Promise.all([
      import('../../certify/certification.ts'),
      import('../../spec/operations.ts'),
    ]);
    try {
      cert = await startCertification({
        ...(input.scenarios ? { scenarios: input.scenarios } : {}),
        host: workspaceHostOf(ctx.settings),
        // The service certifies partners' clients: by default only the scenarios a partner may run.
        operatorProduct: false,
      });
    } catch (e) {
      if (e instanceof UnknownScenarioError) {
        await fail(e.message);
        return;
      }
      throw e;
    }
    const started = Date.now();
    const timeoutMs = input.timeoutSeconds * 1000;
    const runs = cert.runs;
    const sealed = ctx.box.seal(
      JSON.stringify(
        Object.fromEntries(
          runs.map((r) => [
            r.scenario.id,
            { clientSecret: r.workspace.config.clientSecret, password: r.workspace.config.user.password },
          ]),
        ),
      ),
    );
    const progressOf = (): string => {
      const progress: ClientProgress = {
        done: runs.filter((r) => r.ending).length,
        total: runs.length,
        running: runs.filter((r) => !r.ending).map((r) => r.scenario.id),
        kind: 'client',
        startedAt: new Date(started).toISOString(),
        timeoutSeconds: input.timeoutSeconds,
        workspaces: runs.map((r) => viewOf(r, [...new Set(r.scenario.operations.map((id) => operation(id).service))])),
        sealed,
      };
      return JSON.stringify(progress);
    };
    // When each scenario ends, by the rule `certify-client` waits with (settledEnding): complete and
    // then quiet a while (late calls are judged), or stopped where the scenario allows it after a quiet while; at the time-out it is left unended
    // (judged as timed out). The service's own loop, so that a partner's "finish" stops the waiting too.
    const look = () => {
      for (const r of runs) if (!r.ending) r.ending = settledEnding(r, QUIET_MS);
    };
    let written = '';
    for (;;) {
      look();
      const progress = progressOf();
      if (progress !== written) {
        await recordProgress(ctx, claim, progress);
        written = progress;
      }
      if (stopping.aborted || runs.every((r) => r.ending) || Date.now() - started >= timeoutMs) break;
      const now = await ctx.db
        .selectFrom('runs')
        .select(['state', 'attempt', 'input'])
        .where('id', '=', claim.runId)
        .executeTakeFirst();
      // The claim was taken back (this worker was thought dead): another attempt owns the run.
      if (now?.state !== 'running' || now.attempt !== claim.attempt) return;
      if (parseClientInput(now.input).finishRequestedAt) break;
      await sleep(POLL_MS, stopping);
    }
    if (stopping.aborted) {
      await releaseRun(ctx, claim);
      return;
    }
    const reportDir = join(ctx.settings.dataDir, 'reports', run.id);
    // Finished by hand before the time-out: the report says how long the client had.
    const waitedMs = Math.min(Date.now() - started, timeoutMs);
    const outcome = await cert.finish({ reportDir, timeoutMs, waitedMs, operatorProduct: false, attestation });
    if (outcome.problem || !outcome.results) {
      await fail(outcome.problem ?? `The certification ended with exit code ${outcome.exitCode} and no results`);
      return;
    }
    // Signed as a server run is, its certificate made when earned (service/certificates.ts).
    await finishSigned(ctx, claim, run, reportDir, outcome.results);
  } catch (e) {
    if (stopping.aborted) await releaseRun(ctx, claim).catch(() => {});
    else
      await fail(`The service could not perform the certification: ${(e as Error).message.split('\n')[0]}`).catch(
        () => {},
      );
  } finally {
    stopLease();
    await cert?.close().catch(() => {});
  }
}

function viewOf(run: ScenarioRun, services: string[]): WorkspaceView {
  const c = run.workspace.config;
  return {
    scenario: run.scenario.id,
    title: run.scenario.title,
    instructions: run.scenario.instructions,
    services,
    discovery: c.discovery,
    tokenUrl: c.tokenUrl,
    clientId: c.clientId,
    siteId: c.siteId,
    username: c.user.username,
    idp: c.idp,
    ...(run.ending ? { ending: run.ending } : {}),
    requests: run.workspace.exchanges.length,
  };
}
