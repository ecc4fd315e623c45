/**
 * The state of one vitest worker running suites: the run context the runner provided, one HTTP
 * client guarded by the run's breaker (core/breaker.ts: a service that stopped answering is not
 * called again), paced by the run's one pacing state (core/http.ts, sharedPacing: the run's rate
 * and concurrency hold for every worker's calls together) and resending load refusals within the
 * run's one retry budget (core/breaker.ts, RunRetryBudget), the redactor (which learns secrets obtained during the run), the run's evidence
 * budget (core/evidenceCap.ts), the event file and the exchanges already recorded. Created on
 * first use; suites run only through `conformance run`.
 */
import { basename } from 'node:path';
import { expect, inject } from 'vitest';
import { isOperationId, operation } from '../spec/operations.ts';
import { Breaker, type BreakerKey, RunRetryBudget, runInterruption } from './breaker.ts';
import { EventFile } from './events.ts';
import { EvidenceBudget } from './evidenceCap.ts';
import { type CallPlace, ExchangeLog } from './exchangeLog.ts';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import { DEFAULT_CONCURRENCY, HttpClient, Pacer } from './http.ts';
import { Redactor } from './redact.ts';
import type { ExchangeRecord } from './results.ts';
import type { RunContext } from './runContext.ts';

export interface WorkerState {
  ctx: RunContext;
  client: HttpClient;
  redactor: Redactor;
  events: EventFile;
  /** Body bytes the run may still keep as evidence, shared with the other workers. */
  evidenceBudget: EvidenceBudget;
  /** Exchanges already recorded, as written (masked): each kept as long as its exchange is. */
  recorded: WeakMap<Exchange, ExchangeRecord>;
  /** Ids of the exchanges whose record was emitted (an id is emitted once, whatever holds it). */
  emitted: Set<string>;
  /** Every call sent, logged for a differential run (RunContext `exchangeLog`, core/exchangeLog.ts). */
  log?: ExchangeLog;
}

/** The suite file and test of the running call, as the exchange log pairs calls across targets. */
function callPlace(): CallPlace {
  const { testPath, currentTestName } = expect.getState();
  return { suite: testPath ? basename(testPath).replace(/\.suite\.[jt]s$/, '') : '', test: currentTestName ?? '' };
}

/** The service a call of an operation belongs to, at the origin it is sent to. */
export function breakerKeyOf(req: ExchangeRequest, operationId?: string): BreakerKey | undefined {
  if (operationId === undefined || !isOperationId(operationId)) return undefined;
  let origin: string;
  try {
    origin = new URL(req.url).origin;
  } catch {
    return undefined;
  }
  return { service: operation(operationId).service, origin };
}

let state: WorkerState | undefined;

export function worker(): WorkerState {
  if (!state) {
    const ctx = inject('conformance');
    if (!ctx) throw new Error('Suites run only through `conformance run` (no run context was provided)');
    const breaker = new Breaker(ctx.runDir, ctx.http.stopAfterConsecutiveFailures, breakerKeyOf);
    const pacer = new Pacer(ctx.http.maxRequestsPerSecond, ctx.http.concurrency, ctx.pacing, (ctx.workers ?? 1) - 1);
    const log = ctx.exchangeLog ? new ExchangeLog(ctx.exchangeLog, callPlace, [ctx.token, ...ctx.secrets]) : undefined;
    state = {
      ctx,
      client: new HttpClient(ctx.http, log ? log.guard(breaker) : breaker, {
        budget: new RunRetryBudget(ctx.runDir, ctx.http),
        pacer,
        // The runner's Ctrl-C (interruptRun) ends this worker's waits for Retry-After or pacing at once.
        signal: runInterruption(ctx.runDir),
      }),
      redactor: Redactor.forRun({ ...ctx, secrets: [ctx.token, ...ctx.secrets] }),
      events: new EventFile(ctx.runDir),
      evidenceBudget: new EvidenceBudget(ctx.http.maxRunEvidenceBytes, ctx.runDir),
      recorded: new WeakMap(),
      emitted: new Set(),
      ...(log ? { log } : {}),
    };
  }
  return state;
}

/** The run context (target, fixtures, seed, ...). */
export function runContext(): RunContext {
  return worker().ctx;
}

/**
 * How many independent requests a suite may send ahead of the one it judges (core/sendAhead.ts):
 * the run's concurrency, which the pacing bounds over every worker.
 */
export function sendAheadWidth(): number {
  return worker().ctx.http.concurrency ?? DEFAULT_CONCURRENCY;
}

/** Learns a secret obtained during the run, so that every artefact masks it. */
export function learnSecret(secret: string): void {
  const w = worker();
  w.redactor = w.redactor.with([secret]);
  w.log?.learnSecret(secret);
}
