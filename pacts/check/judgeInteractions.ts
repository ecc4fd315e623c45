/**
 * Parts (a) and (b) of `pact check`: every HTTP interaction of a partner's pact judged against
 * the exported OpenAPI document (agrees-with-open-api, request and response) and against the
 * requirement table as a client obligation (the headers the operation lists, `|` sent as %7C, no
 * operation reserved for the operator's products, no deprecated version). Results cite only rows
 * at least as strict as their level (the creed: never MUST on a point the documents leave open).
 */
import { createHash } from 'node:crypto';
import { type ClientRequest, normaliseHeaders } from '../../core/clientRequest.ts';
import type { WorkerResult } from '../../core/events.ts';
import type { Exchange } from '../../core/exchange.ts';
import { agreesWithOpenApi } from '../../checks/index.ts';
import { type ClientJudgement, judge, judgeClientRequest } from '../../app/judgeClientRequest.ts';
import type { Operation } from '../../spec/types.ts';
import { type OpenApiFinding, VERSION_NAME_NOTE } from './compareWithOpenApi.ts';
import type { PactInteraction, PartnerPact } from '../readPact.ts';
import { NO_OPERATION } from '../resolveOperation.ts';

export { NO_OPERATION } from '../resolveOperation.ts';

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
  return pact.interactions.map((i) => {
    const headers = normaliseHeaders(i.request.headers);
    const operation = options.resolve(i.request.method, i.request.path, headers, i.request.body);
    const exchange = exchangeOf(pact, i, operation);
    const bind = (j: ClientJudgement): WorkerResult => ({
      ...j,
      operation: operation?.id ?? NO_OPERATION,
      exchange: exchange.id,
      test: `${pact.consumer} -> ${pact.provider}: ${i.description}`,
    });
    const own = findings.filter((f) => f.interaction === i.index);
    // The OpenAPI document is the operation table and the schemas the suite judges servers with; a
    // disagreement is a rule of the documents broken, though no one row states it.
    const results = (['request', 'response'] as const).map((side) =>
      bind(judge(agreesWithOpenApi(side), { side, findings: own }, 'MUST', [])),
    );
    if (!operation) return { interaction: i, exchange, results };
    const request: ClientRequest = {
      operation,
      method: i.request.method,
      rawPath: i.request.path,
      // A decoded query (specification 3 and 4) is encoded again for the parameter checks; how `|`
      // was sent is then not shown (the pipe check says so).
      rawQuery:
        i.request.rawQuery ??
        new URLSearchParams(
          Object.entries(i.request.query ?? {}).flatMap(([k, vs]) => vs.map((v) => [k, v])),
        ).toString(),
      headers,
      ...(i.request.body !== undefined ? { body: i.request.body } : {}),
    };
    // A consumer test of a documented refusal (HTTP 400 to a request without a required field)
    // leaves out on purpose what the refusal is about.
    const refused = i.response.status >= 400 && i.response.status <= 499;
    const documented = operation.errors.some((e) => e.status === i.response.status);
    const refusalTested =
      refused && documented
        ? `The interaction expects HTTP ${i.response.status}, a documented refusal of ${operation.id}: the consumer tests what the provider answers to this request, so what it leaves out is not judged`
        : undefined;
    // The patients' version under another header name (DEC-C-03): the INFO on SVC-API-Version says so.
    const versionName = own.find((f) => f.code === VERSION_NAME_NOTE)?.message;
    const noted = (j: ClientJudgement): ClientJudgement =>
      versionName && j.check === 'client-sends-header' && j.summary.includes('SVC-API-Version') && j.status !== 'pass'
        ? { ...j, message: `${j.message}. ${versionName}` }
        : j;
    const decodedQuery =
      i.request.query && Object.values(i.request.query).some((vs) => vs.some((v) => v.includes('|')));
    results.push(
      ...judgeClientRequest(request, {
        operatorProduct: options.operatorProduct,
        ...(refusalTested ? { refusalTested } : {}),
        ...(decodedQuery && !request.rawPath.includes('|')
          ? {
              pipeNotShown:
                'A pact of specification 3 or 4 keeps query values decoded, so how `|` is sent is not shown; a live request shows it',
            }
          : {}),
      })
        .map(noted)
        .map(bind),
    );
    return { interaction: i, operation, exchange, results };
  });
}
