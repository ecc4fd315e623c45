/**
 * The state of one vitest worker running suites: the run context the runner provided, one HTTP
 * client, the redactor (which learns secrets obtained during the run), the event file and the
 * exchanges already recorded. Created on first use; suites run only through `conformance run`.
 */
import { inject } from 'vitest';
import { EventFile } from './events.ts';
import { HttpClient } from './http.ts';
import { Redactor } from './redact.ts';
import type { ExchangeRecord } from './results.ts';
import type { RunContext } from './runContext.ts';

export interface WorkerState {
  ctx: RunContext;
  client: HttpClient;
  redactor: Redactor;
  events: EventFile;
  /** Exchanges already recorded, by id, as written (masked). */
  recorded: Map<string, ExchangeRecord>;
}

let state: WorkerState | undefined;

export function worker(): WorkerState {
  if (!state) {
    const ctx = inject('conformance');
    if (!ctx) throw new Error('Suites run only through `conformance run` (no run context was provided)');
    state = {
      ctx,
      client: new HttpClient(ctx.http),
      redactor: Redactor.forRun({ ...ctx, secrets: [ctx.token, ...ctx.secrets] }),
      events: new EventFile(ctx.runDir),
      recorded: new Map(),
    };
  }
  return state;
}

/** The run context (target, fixtures, seed, ...). */
export function runContext(): RunContext {
  return worker().ctx;
}

/** Learns a secret obtained during the run, so that every artefact masks it. */
export function learnSecret(secret: string): void {
  const w = worker();
  w.redactor = w.redactor.with([secret]);
}
