/**
 * Judging and recording: a check runs on a subject (never throwing for the target's behaviour),
 * its finding becomes a result bound to an operation, a level and requirement ids, and the result
 * is recorded once: masked, emitted as a run event, reported to Allure, and made a soft vitest
 * failure when a MUST fails. A check of an exchange without a response (a time-out, a broken
 * connection, a call the run's breaker did not send) records `error` with the exchange's reason,
 * never a pass or a failure; so does one the target still refused for load (HTTP 429, or 503 with
 * Retry-After) when the run stopped resending it (core/http.ts): a statement about load says
 * nothing about the operation, so the check does not run on it. A recorded exchange keeps its
 * bodies within the evidence caps (core/evidenceCap.ts).
 */
import { expect } from 'vitest';
import { rowsAboutMember } from '../spec/memberRows.ts';
import type { Level } from '../spec/types.ts';
import { reportToAllure } from './allure.ts';
import type { Check, Finding } from './check.ts';
import type { WorkerResult } from './events.ts';
import { withinBudget } from './evidenceCap.ts';
import type { Exchange, RespondedExchange } from './exchange.ts';
import { hasResponse } from './exchange.ts';
import type { ExchangeRecord, Status } from './results.ts';
import { worker } from './worker.ts';

/**
 * A check of any subject type. A `Check<S>` is assignable to it whatever `S` is (its functions take
 * `never`); it is only ever called with the subject its caller typed.
 */
export type AnyCheck = Check<never>;

/** What a result is bound to where the check is used. */
export interface Binding {
  operation: string;
  level: Level;
  requirements: readonly string[];
  /** The exchange the result points at; defaults to the subject when it is an exchange. */
  exchange?: Exchange;
  /** Decision ids of spec/decisions.md that the check applies. */
  decisions?: readonly string[];
  replay?: WorkerResult['replay'];
  evidence?: Record<string, unknown>;
}

export type Evaluation = Finding | { outcome: 'error'; message: string; evidence?: Record<string, unknown> };

export function isExchange(v: unknown): v is Exchange {
  return typeof v === 'object' && v !== null && 'request' in v && 'startedAt' in v && 'id' in v;
}

/** Runs a check on a subject without recording anything. */
export function evaluate(subject: Exchange, check: Check<RespondedExchange>, exchange?: Exchange): Evaluation;
export function evaluate<S>(subject: S, check: Check<S>, exchange?: Exchange): Evaluation;
export function evaluate(subject: unknown, check: AnyCheck, exchange?: Exchange): Evaluation {
  const x = exchange ?? (isExchange(subject) ? subject : undefined);
  if (x?.errorKind === 'load-refused') return { outcome: 'error', message: x.error ?? 'refused for load; not judged' };
  if (x && !hasResponse(x))
    return { outcome: 'error', message: `No response to judge: ${x.error ?? 'unknown transport error'}` };
  // The suite chose the Accept (core/request.ts, DEC-R-08): a server may refuse it (RFC 9110
  // 15.5.7), and that answer says nothing of how it serves the operation.
  if (x && hasResponse(x) && x.response.status === 406)
    return {
      outcome: 'error',
      message: `The target answered 406 Not Acceptable to Accept: ${x.request.headers.accept ?? x.request.headers.Accept ?? '<none>'} (DEC-R-08); not judged`,
    };
  const s = subject as never;
  try {
    if (check.appliesTo && !check.appliesTo(s)) return { outcome: 'skip', message: 'not applicable to this response' };
    return check.run(s);
  } catch (e) {
    return {
      outcome: 'error',
      message: `The check ${check.id} could not judge: ${(e as Error).message.split('\n')[0]}`,
    };
  }
}

/** A failed finding is a failure at MUST and a warning below it. */
function statusOf(outcome: Evaluation['outcome'], level: Level): Status {
  if (outcome === 'fail') return level === 'MUST' ? 'fail' : 'warn';
  return outcome;
}

/** Records an exchange once (masked, its bodies within the evidence caps) and returns the record. */
function recordExchange(x: Exchange): ExchangeRecord {
  const w = worker();
  let masked = w.recorded.get(x);
  if (masked === undefined) {
    masked = withinBudget(w.redactor.exchange(x), w.evidenceBudget);
    w.recorded.set(x, masked);
    if (!w.emitted.has(x.id)) {
      w.emitted.add(x.id);
      w.events.emit({ type: 'exchange-recorded', id: x.id, exchange: masked });
    }
  }
  return masked;
}

/** The result of a judgement, masked. */
function resultOf(check: Pick<AnyCheck, 'id' | 'summary'>, status: Status, message: string, b: Binding): WorkerResult {
  const { redactor } = worker();
  return {
    check: check.id,
    summary: redactor.text(check.summary),
    operation: b.operation,
    requirements: [...b.requirements],
    level: b.level,
    status,
    message: redactor.text(message),
    test: expect.getState().currentTestName,
    ...(b.exchange ? { exchange: b.exchange.id } : {}),
    ...(b.evidence ? { evidence: redactor.value(b.evidence) } : {}),
    ...(b.replay ? { replay: redactor.value(b.replay) } : {}),
  };
}

/** Publishes a result: run events, Allure, and a soft vitest failure for a MUST that failed. */
function publish(result: WorkerResult, exchange: ExchangeRecord | undefined, decisions: readonly string[]): void {
  const { events } = worker();
  events.emit({ type: 'check-evaluated', result });
  reportToAllure(result, exchange);
  for (const d of decisions) events.emit({ type: 'decision-applied', decision: d });
  if (result.level === 'MUST' && (result.status === 'fail' || result.status === 'error')) {
    expect.soft(result.status, `[conformance] ${result.operation} ${result.check}: ${result.message}`).toBe('pass');
  }
}

/** Records a result the harness decided (a missing fixture, a property that could not run ...). */
export function record(
  check: Pick<AnyCheck, 'id' | 'summary'>,
  status: Status,
  message: string,
  binding: Binding,
): WorkerResult {
  // The exchange is recorded first: masking learns the personal data it carries, which the
  // message and evidence may repeat.
  const exchange = binding.exchange ? recordExchange(binding.exchange) : undefined;
  const result = resultOf(check, status, message, binding);
  publish(result, exchange, binding.decisions ?? []);
  return result;
}

/** Judges a subject with a check and records the result with its binding. */
export function verify(subject: Exchange, check: Check<RespondedExchange>, binding: Binding): WorkerResult;
export function verify<S>(subject: S, check: Check<S>, binding: Binding): WorkerResult;
export function verify(subject: unknown, check: AnyCheck, binding: Binding): WorkerResult {
  const exchange = binding.exchange ?? (isExchange(subject) ? subject : undefined);
  const finding = evaluate(subject as never, check, exchange);
  const evidence = finding.evidence || binding.evidence ? { ...binding.evidence, ...finding.evidence } : undefined;
  const requirements =
    finding.outcome === 'fail' && 'members' in finding && finding.members !== undefined
      ? [
          ...new Set([
            ...binding.requirements,
            ...finding.members.flatMap((m) => rowsAboutMember(binding.operation, m, binding.level)),
          ]),
        ]
      : binding.requirements;
  return record(check, statusOf(finding.outcome, binding.level), finding.message, {
    ...binding,
    requirements,
    exchange,
    evidence,
  });
}
