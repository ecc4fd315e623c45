/**
 * One request of a client judged against the documents as a client obligation, wherever the
 * request comes from (a partner's pact, `pact check`; a live client in a certification workspace,
 * `certify-client`): the headers its operation lists, `|` sent as %7C, a create without an id of
 * its own, no operation reserved for the operator's products, no deprecated version. Each result
 * takes the level of the rows it cites and never a stricter one (the creed: never MUST on a point
 * the documents leave open).
 */
import {
  clientAvoidsDeprecated,
  clientAvoidsReserved,
  clientBodyMatchesSchema,
  clientCreateWithoutId,
  clientEncodesPipe,
  clientSendsDocumentedParameters,
  clientSendsHeader,
} from '../checks/index.ts';
import type { Check, Finding } from '../core/check.ts';
import type { ClientRequest } from '../core/clientRequest.ts';
import type { Status } from '../core/results.ts';
import { REQUEST_BODY_SCHEMAS } from '../spec/requestBodies.ts';
import { loadRequirements, type Requirement } from '../spec/requirements.ts';
import type { HeaderRequirement, Level, Operation } from '../spec/types.ts';

export interface ClientJudgement {
  check: string;
  summary: string;
  level: Level;
  requirements: string[];
  status: Status;
  message: string;
  evidence?: Record<string, unknown>;
}

export interface ClientRequestOptions {
  /**
   * The client is one of the operator's own products: reserved operations are its to call, and
   * its use of a deprecated version is recorded (INFO), not failed.
   */
  operatorProduct: boolean;
  /** Why how `|` is sent cannot be seen (a pact keeping query values decoded), if it cannot. */
  pipeNotShown?: string;
  /**
   * The request is a consumer's test of a documented refusal (a pact interaction expecting one of
   * the operation's documented 4xx answers): what it leaves out or sends malformed is the point
   * of the test, so its headers, parameters and body are not judged (the reason says so).
   */
  refusalTested?: string;
}

const RANK: Record<Level, number> = { INFO: 0, SHOULD: 1, MUST: 2 };

/** The level a result takes and the rows it cites: the strictest wanted, no stricter than its rows. */
export function binding(wanted: Level, rows: readonly Requirement[]): { level: Level; requirements: string[] } {
  if (rows.length === 0) return { level: 'INFO', requirements: [] };
  const top = Math.max(...rows.map((r) => RANK[r.level]));
  const level = (Object.keys(RANK) as Level[]).find((l) => RANK[l] === Math.min(RANK[wanted], top)) ?? 'INFO';
  return { level, requirements: rows.filter((r) => RANK[r.level] >= RANK[level]).map((r) => r.id) };
}

/** Runs a check (never throwing) and binds its finding; `skipped` records a skip with that reason instead. */
export function judge<S>(
  check: Check<S>,
  subject: S,
  level: Level,
  requirements: string[],
  skipped?: string,
): ClientJudgement {
  let f: Finding | { outcome: 'error'; message: string; evidence?: undefined };
  if (skipped !== undefined) f = { outcome: 'skip', message: skipped };
  else {
    try {
      f =
        check.appliesTo && !check.appliesTo(subject)
          ? { outcome: 'skip', message: 'not applicable' }
          : check.run(subject);
    } catch (e) {
      f = { outcome: 'error', message: `The check ${check.id} could not judge: ${(e as Error).message}` };
    }
  }
  return {
    check: check.id,
    summary: check.summary,
    level,
    requirements,
    status: f.outcome === 'fail' ? (level === 'MUST' ? 'fail' : 'warn') : f.outcome,
    message: f.message,
    ...(f.evidence ? { evidence: f.evidence } : {}),
  };
}

/**
 * The rows of an operation that a test picks: client and server rows alike (both state what a
 * request carries), those a server run cannot test included ("external integrators must not
 * consume them" is untestable against a server precisely because it binds the client).
 */
export function rowsOf(op: Operation, test: (r: Requirement) => boolean): Requirement[] {
  const rows = loadRequirements().filter((r) => r.operations.includes(op.id) && test(r));
  // A client row states the obligation in the client's terms: cited alone where there is one.
  const client = rows.filter((r) => r.party === 'client');
  return client.length > 0 ? client : rows;
}

/** A row names the header (in backticks) for the operation: `SU-SiteId`, `Authorization: Bearer ...`. */
function mentionsHeader(r: Requirement, header: HeaderRequirement): boolean {
  if (header.name === 'Authorization') return r.text.includes(`\`Authorization: ${header.value.split(' ')[0]}`);
  return r.text.includes(`\`${header.name}`);
}

export function judgeClientRequest(request: ClientRequest, options: ClientRequestOptions): ClientJudgement[] {
  const op = request.operation;
  const out: ClientJudgement[] = [];
  for (const header of op.headers) {
    const rows = rowsOf(op, (r) => mentionsHeader(r, header));
    // A client row naming the header binds the client at its own level, whether or not a server
    // refuses a request without it (D3-4.4-21: patient bodies as `application/fhir+json`).
    const b = binding(header.enforced || rows.some((r) => r.party === 'client') ? 'MUST' : 'SHOULD', rows);
    out.push(judge(clientSendsHeader(header), request, b.level, b.requirements, options.refusalTested));
  }
  // The migration row (D1-4.1-16: "migration to version 2 is mandatory") states no parameter.
  const params = binding(
    'MUST',
    rowsOf(op, (r) => /\b(required|mandatory)\b|YYYY-MM-DD/i.test(r.text) && !/\bmigration\b/i.test(r.text)),
  );
  if (op.parameters.some((p) => p.in === (request.method === 'GET' ? 'query' : 'form')))
    out.push(judge(clientSendsDocumentedParameters, request, params.level, params.requirements, options.refusalTested));
  const schema = REQUEST_BODY_SCHEMAS[op.id];
  if (schema && request.method !== 'GET' && request.method !== 'DELETE') {
    const body = binding(
      'MUST',
      rowsOf(op, (r) => r.party === 'client' && /\b(body|Patient|Condition|Contract)\b/.test(r.text)),
    );
    out.push(judge(clientBodyMatchesSchema(schema), request, body.level, body.requirements, options.refusalTested));
  }
  if (clientCreateWithoutId.appliesTo?.(request) && request.method !== 'GET' && request.method !== 'DELETE') {
    // D3 4.4: "Patient body (2.4) without id"; the request schema leaves `id` allowed.
    const withoutId = binding(
      'MUST',
      rowsOf(op, (r) => /without `?id`?/.test(r.text)),
    );
    out.push(judge(clientCreateWithoutId, request, withoutId.level, withoutId.requirements));
  }
  const pipeRows = rowsOf(op, (r) => r.text.includes('%7C'));
  const pipe = binding(pipeRows.length ? 'MUST' : 'INFO', pipeRows);
  out.push(judge(clientEncodesPipe, request, pipe.level, pipe.requirements, options.pipeNotShown));
  const reserved = binding(
    'MUST',
    rowsOf(op, (r) => /reserved for the operator/i.test(r.text)),
  );
  out.push(
    judge(
      clientAvoidsReserved,
      request,
      reserved.level,
      reserved.requirements,
      options.operatorProduct && op.reservedForOperator
        ? "The client is one of the operator's own products (--operator-product): reserved operations are its to call"
        : undefined,
    ),
  );
  // D1 4.1: "migration to version 2 is mandatory for new and existing integrations" (D1-4.1-16, a
  // client row): a MUST for an external integrator. The operator's own products are excused as
  // for reserved operations: their use of version 1 is recorded at INFO (D1-9-05), not failed.
  const deprecatedRows = rowsOf(op, (r) => /deprecated/i.test(r.text));
  const deprecated = options.operatorProduct
    ? binding(
        'INFO',
        deprecatedRows.filter((r) => r.level === 'INFO'),
      )
    : binding('MUST', deprecatedRows);
  out.push(judge(clientAvoidsDeprecated, request, deprecated.level, deprecated.requirements));
  return out;
}
