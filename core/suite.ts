/**
 * The API suites use (inside vitest workers): select operations, call them by id, and bind checks
 * to requirement ids and a level. Every judged exchange is recorded, masked, in the run's events.
 */
import { describe, expect, inject } from 'vitest';
import { operation } from '../spec/operations.ts';
import type { FeatureName, Level, Operation } from '../spec/types.ts';
import type { Check, Finding } from './check.ts';
import type { Exchange, RespondedExchange } from './exchange.ts';
import { hasResponse } from './exchange.ts';
import { EventFile } from './events.ts';
import type { WorkerResult } from './events.ts';
import { HttpClient } from './http.ts';
import { Redactor } from './redact.ts';
import type { Tokens } from './token.ts';
import { obtainTokens } from './token.ts';
import type { ExchangeRecord, Status } from './results.ts';
import { reportToAllure } from './allure.ts';
import type { RunContext } from './runContext.ts';

interface WorkerState {
  ctx: RunContext;
  client: HttpClient;
  redactor: Redactor;
  events: EventFile;
  /** Exchanges already recorded, by id, as written (masked). */
  recorded: Map<string, ExchangeRecord>;
}

let state: WorkerState | undefined;

function worker(): WorkerState {
  if (!state) {
    const ctx = inject('conformance');
    if (!ctx) throw new Error('Suites run only through `conformance run` (no run context was provided)');
    state = {
      ctx,
      client: new HttpClient(ctx.http),
      redactor: new Redactor([ctx.token, ...ctx.secrets], {
        personalData: ctx.evidence !== 'full',
        personalValues: Redactor.personalValuesOf(ctx.fixtures),
      }),
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

const tokenCache = new Map<string, Promise<string>>();

/** Learns a secret obtained during the run, so that every artefact masks it. */
function learnSecret(secret: string): void {
  const w = worker();
  w.redactor = w.redactor.with([secret]);
}

/**
 * Fresh tokens of a named credential (config `credentials`), for steps that consume them
 * (revoke, logout). Undefined when the config does not name it; throws a one-line error when the
 * target refuses to issue them (recorded as `error` by the suite step).
 */
export async function freshTokens(name: string): Promise<Tokens | undefined> {
  const credentials = runContext().credentials[name];
  if (!credentials) return undefined;
  const tokens = await obtainTokens(worker().client, credentials);
  learnSecret(tokens.access);
  if (tokens.refresh) learnSecret(tokens.refresh);
  return tokens;
}

/** The (cached) access token of a named credential; undefined when the config does not name it. */
export async function tokenFor(name: string): Promise<string | undefined> {
  if (!runContext().credentials[name]) return undefined;
  if (!tokenCache.has(name))
    tokenCache.set(
      name,
      freshTokens(name).then((t) => t!.access),
    );
  return tokenCache.get(name);
}

/** `Basic <base64(id:secret)>` value of a named Basic credential. */
export function basicFor(name: string): string | undefined {
  const b = runContext().basic[name];
  return b ? Buffer.from(`${b.clientId}:${b.clientSecret}`).toString('base64') : undefined;
}

export function hasFeatures(features: readonly FeatureName[]): boolean {
  const have = runContext().features;
  return features.every((f) => have.includes(f));
}

/** A describe block for one operation, skipped when the operation is not selected or has no address. */
export function describeOperation(id: string, body: () => void): void {
  const ctx = runContext();
  operation(id); // an unknown id is a suite bug: fail loudly at collection
  const active = ctx.selected.includes(id) && ctx.addresses[id] !== undefined;
  describe.skipIf(!active)(id, body);
}

/**
 * A describe block for a flow across several operations (a lifecycle): it runs when any of them
 * is selected and all of them have an address. Results still name the operation each step judges.
 */
export function describeFlow(title: string, ids: readonly string[], body: () => void): void {
  const ctx = runContext();
  for (const id of ids) operation(id);
  const active = ids.some((id) => ctx.selected.includes(id)) && ids.every((id) => ctx.addresses[id] !== undefined);
  describe.skipIf(!active)(title, body);
}

export interface CallOptions {
  /** Form fields (POST operations); undefined values are left out. */
  form?: Record<string, string | undefined>;
  query?: Record<string, string | undefined>;
  path?: Record<string, string>;
  /** Extra or replacing headers. */
  headers?: Record<string, string>;
  /** Documented headers to leave out (case-insensitive names). */
  omitHeaders?: readonly string[];
  /** A raw body instead of the form encoding. */
  body?: string;
  /** Values of header placeholders (`{token}`, `{basic}`, `{userId}`, `{diaryToken}` ...). */
  values?: Record<string, string>;
}

function defined(fields: Record<string, string | undefined> | undefined): [string, string][] {
  return Object.entries(fields ?? {}).filter((kv): kv is [string, string] => kv[1] !== undefined);
}

/** Builds the request of an operation as the document describes it. */
export function buildRequest(op: Operation, options: CallOptions = {}): Exchange['request'] {
  const { ctx } = worker();
  const base = ctx.addresses[op.id];
  if (base === undefined) throw new Error(`Operation ${op.id} has no address in this run`);
  // A path parameter left undefined drops its whole segment (optional segments, e.g. a code set's
  // scheme); an empty string keeps the segment empty (to probe a missing id).
  const suffix = op.pathSuffix.replace(/\/\{(\w+)\}/g, (_, name: string) =>
    options.path?.[name] === undefined ? '' : `/${encodeURIComponent(options.path[name])}`,
  );
  const url = new URL(base + suffix);
  for (const [k, v] of defined(options.query)) url.searchParams.append(k, v);
  const omit = new Set((options.omitHeaders ?? []).map((h) => h.toLowerCase()));
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const h of op.headers) {
    if (omit.has(h.name.toLowerCase())) continue;
    const values: Record<string, string> = {
      token: ctx.token,
      siteId: ctx.siteId,
      basic: basicFor('client') ?? '',
      ...options.values,
    };
    headers[h.name] = h.value.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  }
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    headers[k] = v;
  }
  const body =
    options.body ??
    (op.method === 'POST' || options.form ? new URLSearchParams(defined(options.form)).toString() : undefined);
  return { method: op.method, url: url.toString(), headers, ...(body !== undefined ? { body } : {}) };
}

/** Sends one request of the operation. Never throws for the target's behaviour. */
export async function call(id: string, options: CallOptions = {}): Promise<Exchange> {
  const op = operation(id);
  return worker().client.send(buildRequest(op, options), id);
}

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

function isExchange(v: unknown): v is Exchange {
  return typeof v === 'object' && v !== null && 'request' in v && 'startedAt' in v && 'id' in v;
}

export type Evaluation = Finding | { outcome: 'error'; message: string; evidence?: Record<string, unknown> };

/** Runs a check on a subject without recording anything. */
export function evaluate(subject: Exchange, check: Check<RespondedExchange>, exchange?: Exchange): Evaluation;
export function evaluate<S>(subject: S, check: Check<S>, exchange?: Exchange): Evaluation;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function evaluate(subject: unknown, check: Check<any>, exchange?: Exchange): Evaluation {
  const x = exchange ?? (isExchange(subject) ? subject : undefined);
  if (x && !hasResponse(x))
    return { outcome: 'error', message: `No response to judge: ${x.error ?? 'unknown transport error'}` };
  try {
    if (check.appliesTo && !check.appliesTo(subject))
      return { outcome: 'skip', message: 'not applicable to this response' };
    return check.run(subject);
  } catch (e) {
    return {
      outcome: 'error',
      message: `The check ${check.id} could not judge: ${(e as Error).message.split('\n')[0]}`,
    };
  }
}

function statusOf(outcome: Evaluation['outcome'], level: Level): Status {
  if (outcome === 'fail') return level === 'MUST' ? 'fail' : 'warn';
  return outcome;
}

/** Records an exchange once (masked) and returns the masked record. */
function recordExchange(x: Exchange): ExchangeRecord {
  const w = worker();
  let masked = w.recorded.get(x.id);
  if (masked === undefined) {
    masked = w.redactor.exchange(x);
    w.recorded.set(x.id, masked);
    w.events.emit({ type: 'exchange-recorded', id: x.id, exchange: masked });
  }
  return masked;
}

/** Records a result directly (for outcomes decided by the suite, such as a missing fixture). */
export function record(
  check: Pick<Check<unknown>, 'id' | 'summary'>,
  status: Status,
  message: string,
  binding: Binding,
): WorkerResult {
  const w = worker();
  // The exchange is recorded first: masking learns the personal data it carries, which the
  // message and evidence may repeat.
  const exchange = binding.exchange ? recordExchange(binding.exchange) : undefined;
  const result: WorkerResult = {
    check: check.id,
    summary: w.redactor.text(check.summary),
    operation: binding.operation,
    requirements: [...binding.requirements],
    level: binding.level,
    status,
    message: w.redactor.text(message),
    test: expect.getState().currentTestName,
    ...(binding.exchange ? { exchange: binding.exchange.id } : {}),
    ...(binding.evidence ? { evidence: w.redactor.value(binding.evidence) } : {}),
    ...(binding.replay ? { replay: w.redactor.value(binding.replay) } : {}),
  };
  w.events.emit({ type: 'check-evaluated', result });
  reportToAllure(result, exchange);
  for (const d of binding.decisions ?? []) w.events.emit({ type: 'decision-applied', decision: d });
  if (binding.level === 'MUST' && (status === 'fail' || status === 'error')) {
    expect.soft(status, `[conformance] ${binding.operation} ${check.id}: ${result.message}`).toBe('pass');
  }
  return result;
}

/** Judges a subject with a check and records the result with its binding. */
export function verify(subject: Exchange, check: Check<RespondedExchange>, binding: Binding): WorkerResult;
export function verify<S>(subject: S, check: Check<S>, binding: Binding): WorkerResult;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function verify(subject: unknown, check: Check<any>, binding: Binding): WorkerResult {
  const exchange = binding.exchange ?? (isExchange(subject) ? subject : undefined);
  const finding = evaluate(subject, check, exchange);
  const evidence = finding.evidence || binding.evidence ? { ...binding.evidence, ...finding.evidence } : undefined;
  return record(check, statusOf(finding.outcome, binding.level), finding.message, { ...binding, exchange, evidence });
}
