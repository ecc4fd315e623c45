/**
 * Two runs' calls paired step by step (issue 35): the same seed and options make the same calls in
 * the same tests on every target, so calls pair within their test (suite file and vitest test), never
 * across tests and never by an address or an id a server returned. Within a test a call pairs first
 * with the call of the same request (its operation, method, the path after the operation's address,
 * its query and body: independent of where each target is and of the order the answers came in
 * when calls were in flight together), then, among the calls left, with the call of the same
 * operation at the same place in the order the test started them (a request that names a record
 * the target created and numbered its own way). What is left was made by one run only: the runs
 * took other paths (a property that failed on one side is shrunk there alone).
 */
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import { isOperationId, operation } from '../../spec/operations.ts';

export interface ExchangePair {
  reference?: LoggedExchange;
  candidate?: LoggedExchange;
}

export interface Pairing {
  /** Calls made by both runs, in the reference's order. */
  pairs: { reference: LoggedExchange; candidate: LoggedExchange }[];
  referenceOnly: LoggedExchange[];
  candidateOnly: LoggedExchange[];
}

/** A multipart boundary is drawn at random per request (core/request.ts): compared as one. */
const BOUNDARY = /conformance-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The path after the operation's address: its last segments, as many as the operation's own suffix has. */
function pathAfterAddress(url: URL, operationId: string | undefined): string {
  const segments = url.pathname.split('/');
  if (operationId === undefined || !isOperationId(operationId)) return url.pathname;
  const own = operation(operationId)
    .pathSuffix.split('/')
    .filter((s) => s !== '').length;
  return own === 0 ? '' : segments.slice(-own).join('/');
}

/** What identifies a request whatever the target: never its origin nor the address discovery gave. */
export function requestFingerprint(x: LoggedExchange): string {
  const e = x.exchange;
  let where: string;
  try {
    const url = new URL(e.url);
    where = `${pathAfterAddress(url, e.operation)}${url.search}`;
  } catch {
    where = e.url;
  }
  const body = (e.request.body ?? '').replace(BOUNDARY, 'conformance-boundary');
  return [e.operation ?? '', e.method, where, body].join('\u0000');
}

const testOf = (x: LoggedExchange): string => `${x.suite}\u0000${x.test}`;

function byTest(list: readonly LoggedExchange[]): Map<string, LoggedExchange[]> {
  const out = new Map<string, LoggedExchange[]>();
  for (const x of list) {
    const key = testOf(x);
    const calls = out.get(key) ?? [];
    calls.push(x);
    out.set(key, calls);
  }
  for (const calls of out.values()) calls.sort((a, b) => a.ordinal - b.ordinal);
  return out;
}

/** Pairs the calls of one test: by request first, then by operation in the order started. */
function pairTest(
  reference: readonly LoggedExchange[],
  candidate: readonly LoggedExchange[],
): { pairs: [LoggedExchange, LoggedExchange][]; referenceOnly: LoggedExchange[]; candidateOnly: LoggedExchange[] } {
  const partner = new Map<LoggedExchange, LoggedExchange>();
  const taken = new Set<LoggedExchange>();
  const waiting = new Map<string, LoggedExchange[]>();
  for (const c of candidate) {
    const key = requestFingerprint(c);
    const list = waiting.get(key) ?? [];
    list.push(c);
    waiting.set(key, list);
  }
  for (const r of reference) {
    const c = waiting.get(requestFingerprint(r))?.shift();
    if (c) {
      partner.set(r, c);
      taken.add(c);
    }
  }
  const leftByOperation = new Map<string, LoggedExchange[]>();
  for (const c of candidate) {
    if (taken.has(c)) continue;
    const op = c.exchange.operation ?? '';
    const list = leftByOperation.get(op) ?? [];
    list.push(c);
    leftByOperation.set(op, list);
  }
  for (const r of reference) {
    if (partner.has(r)) continue;
    const c = leftByOperation.get(r.exchange.operation ?? '')?.shift();
    if (c) {
      partner.set(r, c);
      taken.add(c);
    }
  }
  return {
    pairs: reference.flatMap((r) => {
      const c = partner.get(r);
      return c ? [[r, c] as [LoggedExchange, LoggedExchange]] : [];
    }),
    referenceOnly: reference.filter((r) => !partner.has(r)),
    candidateOnly: candidate.filter((c) => !taken.has(c)),
  };
}

/** The two runs' calls paired, test by test (tests in the order of their names). */
export function pairExchanges(reference: readonly LoggedExchange[], candidate: readonly LoggedExchange[]): Pairing {
  const [r, c] = [byTest(reference), byTest(candidate)];
  const tests = [...new Set([...r.keys(), ...c.keys()])].sort();
  const out: Pairing = { pairs: [], referenceOnly: [], candidateOnly: [] };
  for (const test of tests) {
    const one = pairTest(r.get(test) ?? [], c.get(test) ?? []);
    out.pairs.push(...one.pairs.map(([reference, candidate]) => ({ reference, candidate })));
    out.referenceOnly.push(...one.referenceOnly);
    out.candidateOnly.push(...one.candidateOnly);
  }
  return out;
}
