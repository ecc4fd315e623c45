/**
 * Parts (a) and (b) of `pact check`: every HTTP interaction of a partner's pact judged against
 * the exported OpenAPI document (agrees-with-open-api, request and response) and against the
 * requirement table as a client obligation (the headers the operation lists, `|` sent as %7C, no
 * operation reserved for the operator's products, no deprecated version). Results cite only rows
 * at least as strict as their level (the creed: never MUST on a point the documents leave open).
 */
import { createHash } from 'node:crypto';
import type { Check, Finding } from '../../core/check.ts';
import { type ClientRequest, normaliseHeaders } from '../../core/clientRequest.ts';
import type { WorkerResult } from '../../core/events.ts';
import type { Exchange } from '../../core/exchange.ts';
import {
  agreesWithOpenApi,
  clientAvoidsDeprecated,
  clientAvoidsReserved,
  clientEncodesPipe,
  clientSendsHeader,
} from '../../checks/index.ts';
import { loadRequirements, type Requirement } from '../../spec/requirements.ts';
import type { HeaderRequirement, Level, Operation } from '../../spec/types.ts';
import type { OpenApiFinding } from './compareWithOpenApi.ts';
import type { PactInteraction, PartnerPact } from '../readPact.ts';

/** Results of an interaction that addresses no operation of the table are filed under this name. */
export const NO_OPERATION = '(no operation of the documents)';

const RANK: Record<Level, number> = { INFO: 0, SHOULD: 1, MUST: 2 };

export interface JudgeOptions {
  /** The consumer is one of the operator's own products: reserved operations are theirs to call. */
  operatorProduct: boolean;
  /** Resolves an interaction's request to the operation it addresses. */
  resolve: (method: string, path: string, headers: Record<string, string>, body?: string) => Operation | undefined;
}

export interface JudgedInteraction {
  interaction: PactInteraction;
  operation?: Operation;
  exchange: Exchange;
  results: WorkerResult[];
}

/** The level a result takes and the rows it cites: the strictest wanted, no stricter than its rows. */
function binding(wanted: Level, rows: readonly Requirement[]): { level: Level; requirements: string[] } {
  if (rows.length === 0) return { level: 'INFO', requirements: [] };
  const top = Math.max(...rows.map((r) => RANK[r.level]));
  const level = (Object.keys(RANK) as Level[]).find((l) => RANK[l] === Math.min(RANK[wanted], top)) ?? 'INFO';
  return { level, requirements: rows.filter((r) => RANK[r.level] >= RANK[level]).map((r) => r.id) };
}

function evaluate<S>(check: Check<S>, subject: S): Finding | { outcome: 'error'; message: string } {
  try {
    if (check.appliesTo && !check.appliesTo(subject)) return { outcome: 'skip', message: 'not applicable' };
    return check.run(subject);
  } catch (e) {
    return { outcome: 'error', message: `The check ${check.id} could not judge: ${(e as Error).message}` };
  }
}

/** The pact's interaction as an exchange: what the consumer sends and the answer it expects. */
function exchangeOf(pact: PartnerPact, i: PactInteraction, operation?: Operation): Exchange {
  const query =
    i.request.rawQuery ??
    (i.request.query
      ? new URLSearchParams(Object.entries(i.request.query).flatMap(([k, vs]) => vs.map((v) => [k, v]))).toString()
      : '');
  const responseHeaders = normaliseHeaders(i.response.headers);
  const body = i.response.body ?? '';
  return {
    id: `pact-${createHash('sha256').update(pact.file).digest('hex').slice(0, 8)}-${i.index}`,
    ...(operation ? { operation: operation.id } : {}),
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
    request: {
      method: i.request.method,
      url: `${i.request.path}${query ? `?${query}` : ''}`,
      headers: normaliseHeaders(i.request.headers),
      ...(i.request.body !== undefined ? { body: i.request.body } : {}),
    },
    response: {
      status: i.response.status,
      headers: responseHeaders,
      bodyText: body,
      size: Buffer.byteLength(body),
      truncated: false,
    },
  };
}

export function judgeInteractions(
  pact: PartnerPact,
  findings: readonly OpenApiFinding[],
  options: JudgeOptions,
): JudgedInteraction[] {
  // Every row, those a server run cannot test included: "external integrators must not consume
  // them" is marked untestable against a server precisely because it binds the client.
  const requirements = loadRequirements();
  const rowsOf = (op: Operation, test: (r: Requirement) => boolean) =>
    requirements.filter((r) => r.operations.includes(op.id) && test(r));
  return pact.interactions.map((i) => {
    const headers = normaliseHeaders(i.request.headers);
    const operation = options.resolve(i.request.method, i.request.path, headers, i.request.body);
    const exchange = exchangeOf(pact, i, operation);
    const results: WorkerResult[] = [];
    const record = <S>(check: Check<S>, subject: S, level: Level, cited: string[], message?: string) => {
      const f = message !== undefined ? { outcome: 'skip' as const, message } : evaluate(check, subject);
      results.push({
        check: check.id,
        summary: check.summary,
        operation: operation?.id ?? NO_OPERATION,
        requirements: cited,
        level,
        status: f.outcome === 'fail' ? (level === 'MUST' ? 'fail' : 'warn') : f.outcome,
        message: f.message,
        exchange: exchange.id,
        test: `${pact.consumer} -> ${pact.provider}: ${i.description}`,
        ...('evidence' in f && f.evidence ? { evidence: f.evidence } : {}),
      });
    };
    const own = findings.filter((f) => f.interaction === i.index);
    // The OpenAPI document is the operation table and the schemas the suite judges servers with; a
    // disagreement is a rule of the documents broken, though no one row states it.
    for (const side of ['request', 'response'] as const)
      record(agreesWithOpenApi(side), { side, findings: own }, 'MUST', []);
    if (!operation) return { interaction: i, exchange, results };
    const request: ClientRequest = {
      operation,
      method: i.request.method,
      rawPath: i.request.path,
      rawQuery: i.request.rawQuery ?? '',
      headers,
      ...(i.request.body !== undefined ? { body: i.request.body } : {}),
    };
    for (const header of operation.headers) {
      const wanted: Level = header.enforced ? 'MUST' : 'SHOULD';
      const b = binding(
        wanted,
        rowsOf(operation, (r) => mentionsHeader(r, header)),
      );
      record(clientSendsHeader(header), request, b.level, b.requirements);
    }
    const pipeRows = rowsOf(operation, (r) => r.text.includes('%7C'));
    const pipe = binding(pipeRows.length ? 'MUST' : 'INFO', pipeRows);
    const decodedQuery =
      i.request.query && Object.values(i.request.query).some((vs) => vs.some((v) => v.includes('|')));
    record(
      clientEncodesPipe,
      request,
      pipe.level,
      pipe.requirements,
      decodedQuery && !request.rawPath.includes('|')
        ? 'A pact of specification 3 or 4 keeps query values decoded, so how `|` is sent is not shown; a live request shows it'
        : undefined,
    );
    const reservedRows = rowsOf(operation, (r) => /reserved for the operator/i.test(r.text));
    const reserved = binding('MUST', reservedRows);
    record(
      clientAvoidsReserved,
      request,
      reserved.level,
      reserved.requirements,
      options.operatorProduct && operation.reservedForOperator
        ? "The consumer is one of the operator's own products (--operator-product): reserved operations are its to call"
        : undefined,
    );
    const deprecatedRows = rowsOf(operation, (r) => /deprecated/i.test(r.text));
    const deprecated = binding('INFO', deprecatedRows);
    record(clientAvoidsDeprecated, request, deprecated.level, deprecated.requirements);
    return { interaction: i, operation, exchange, results };
  });
}

/** A row names the header (in backticks) for the operation: `SU-SiteId`, `Authorization: Bearer ...`. */
function mentionsHeader(r: Requirement, header: HeaderRequirement): boolean {
  if (header.name === 'Authorization') {
    const scheme = header.value.split(' ')[0];
    return r.text.includes(`\`Authorization: ${scheme}`);
  }
  return r.text.includes(`\`${header.name}`);
}
