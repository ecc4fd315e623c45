/**
 * Steps shared by the suites: the same verifications every operation needs (success shape,
 * header enforcement, error answers, paging walks). Requirement ids are passed in by the suite.
 */
import type { OperationId } from '../../spec/operations.ts';
import {
  bodyIsJson,
  contentTypeIsJson,
  documentedCodeHasItsStatus,
  documentedMethodServed,
  errorStatusAndCode,
  matchesSchema,
  operationOutcomeShape,
  pageWithinCount,
  pagesDoNotOverlap,
  pagingTagsMatchRequest,
  pagingTagsPresent,
  requestRefused,
  resourceKey,
  sentParametersRead,
  successStatus,
  totalConsistent,
} from '../../checks/index.ts';
import { FIXTURE_HELD, PRECONDITION } from '../../core/decidedOutcomes.ts';
import { walkStep } from '../../core/readers/paging.ts';
import type { Exchange, RespondedExchange } from '../../core/exchange.ts';
import { notFoundAnswer } from '../../core/fixtureHeld.ts';
import { bundleResources, hasResponse, isRecord, jsonBody } from '../../core/exchange.ts';
import type { CallOptions } from '../../core/suite.ts';
import { call, fixturesNotHeld, on } from '../../core/suite.ts';
import { operation } from '../../spec/operations.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import type { ErrorEntry, Level, Operation } from '../../spec/types.ts';

/** "Whenever a documented error code is returned, its HTTP status is the one of the table." */
const DOCUMENTED_STATUS_RULE: Record<string, readonly string[]> = { D1: ['D1-7-16'], D2: ['D2-7-28'], D3: ['D3-7-39'] };
/**
 * "Every response body is JSON with a JSON media type", per document, each the row of its own
 * document (Document 2: 1, DEC-D2-26; Document 3: 4, DEC-D3-19).
 */
const JSON_RULE: Record<string, readonly string[]> = { D1: ['D1-1-06'], D2: ['D2-1-09'], D3: ['D3-4-02'] };
/**
 * Where request parameters travel, per document that says so: D1 4 (form body for POST, query
 * for GET; D1-4-02), D2 4 (every operation a GET with query parameters; D2-4-03).
 */
const TRANSPORT_RULE: Record<string, readonly string[]> = { D1: ['D1-4-02'], D2: ['D2-4-03'] };

/**
 * The MUST rows saying the operation is addressed by its key (or its documented path) with its
 * method ("addressed by the key `find_member_endpoint` with method POST"): a 405 or 501 to that
 * method breaks them, whatever else they say.
 */
function methodRowsOf(op: Operation): string[] {
  const path = `\`${op.documentedPath.split(/[ ?]/)[0]}`;
  const method = new RegExp(`\\b${op.method}\\b`);
  return loadRequirements('server')
    .filter((r) => r.level === 'MUST' && r.notTestedReason === '' && r.operations.includes(op.id))
    .filter((r) => (r.text.includes(`\`${op.discoveryKey}\``) || r.text.includes(path)) && method.test(r.text))
    .map((r) => r.id);
}

/** Outcomes the suite decides itself (core/decidedOutcomes.ts), under the names the suites use. */
export {
  CREDENTIAL_CONFIGURED as CREDENTIAL_CHECK,
  DESTRUCTIVE_STEP as DESTRUCTIVE_CHECK,
  FEATURE_AVAILABLE as FEATURE_CHECK,
  FIXTURE_CONFIGURED as FIXTURE_CHECK,
  FIXTURE_HELD as FIXTURE_HELD_CHECK,
} from '../../core/decidedOutcomes.ts';

export interface Reqs {
  /** Requirement ids of the success status / shape. */
  success?: readonly string[];
  schema?: readonly string[];
  json?: readonly string[];
}

/**
 * A success step whose request named a fixture the running test declared, answered "not found" by
 * a target that has not shown it holds the value: the config's data is wanting, not the server
 * (issue 22). Records one `fixture-held` skip citing every requirement the step and its test
 * judge, and returns true; false otherwise (nothing recorded).
 */
function fixtureNotHeldSkip(x: Exchange, id: OperationId, cited: readonly string[]): boolean {
  const how = notFoundAnswer(x, operation(id).errors);
  if (how === undefined) return false;
  const unheld = fixturesNotHeld(x);
  if (!unheld) return false;
  const names = unheld.paths.map((p) => `fixtures.${p}`);
  on(id)
    .must(...new Set([...cited, ...unheld.cites]))
    .with({ exchange: x, evidence: { fixtures: names, answer: how } })
    .decided(
      FIXTURE_HELD,
      'skip',
      `fixture not held by the target: ${names.join(', ')} (answered ${how} to a request naming it; check the config)`,
    );
  return true;
}

/** Status, JSON media type, JSON body and documented schema of a successful answer. */
export function verifySuccess(
  x: Exchange,
  id: OperationId,
  reqs: Reqs,
  opts: { status?: number; decisions?: string[] } = {},
): boolean {
  const op = operation(id);
  const b = on(id);
  const cited = [
    ...(reqs.success ?? []),
    ...(op.responseMediaType === 'json' ? (reqs.json ?? JSON_RULE[op.document]) : []),
    ...(op.responseSchema ? (reqs.schema ?? []) : []),
  ];
  if (fixtureNotHeldSkip(x, id, cited)) return false;
  // A request the step expects served that is refused as missing a parameter it carried: read elsewhere.
  const transport = sentParametersRead(op);
  if (TRANSPORT_RULE[op.document] && hasResponse(x) && transport.appliesTo?.(x))
    b.must(...TRANSPORT_RULE[op.document]).check(x, transport);
  const status = b
    .must(...(reqs.success ?? []))
    .under(...(opts.decisions ?? []))
    .check(x, successStatus(opts.status ?? op.successStatus));
  if (status.status !== 'pass') {
    // Not served: whether the documented method itself was refused at the discovered address.
    const methodRows = methodRowsOf(op);
    if (hasResponse(x) && methodRows.length > 0) b.must(...methodRows).check(x, documentedMethodServed);
    return false;
  }
  if (op.responseMediaType !== 'json') return true;
  const json = b.must(...(reqs.json ?? JSON_RULE[op.document]));
  json.check(x, contentTypeIsJson);
  json.check(x, bodyIsJson);
  if (!op.responseSchema) return true;
  return b.must(...(reqs.schema ?? [])).check(x, matchesSchema(op.responseSchema)).status === 'pass';
}

/**
 * Every enforced header of the operation: a request without it must be refused, and so must a
 * request with an unknown bearer token.
 */
export async function verifyHeadersEnforced(
  id: OperationId,
  base: CallOptions,
  requirements: (header: string) => readonly string[],
  decisions: string[] = ['DEC-D1-21'],
): Promise<void> {
  const b = on(id);
  for (const h of operation(id).headers.filter((hh) => hh.enforced)) {
    const x = await b.call({ ...base, omitHeaders: [h.name] });
    b.must(...requirements(h.name))
      .under(...decisions)
      .check(x, requestRefused, { omittedHeader: h.name });
  }
  if (operation(id).headers.some((h) => h.name === 'Authorization')) {
    const x = await b.call({ ...base, headers: { Authorization: 'Bearer not-a-valid-token-0000' } });
    b.must(...requirements('Authorization'))
      .under(...decisions)
      .check(x, requestRefused, { header: 'Authorization', value: 'an unknown bearer token' });
  }
}

/**
 * A documented error: exact status and code (from the operation's error table), and the body
 * shape (OperationOutcome) at the given level.
 */
export function verifyError(
  x: Exchange,
  id: OperationId,
  codes: string | readonly string[],
  requirements: readonly string[],
  opts: { shapeLevel?: Level; shapeRequirements?: readonly string[]; decisions?: string[] } = {},
): void {
  const op = operation(id);
  const b = on(id);
  const wanted = (Array.isArray(codes) ? codes : [codes]) as string[];
  const pairs: ErrorEntry[] = op.errors.filter((e) => wanted.includes(e.code));
  if (pairs.length !== wanted.length) throw new Error(`Suite bug: ${id} has no documented error ${wanted.join('/')}`);
  const decisions = opts.decisions ?? [];
  b.must(...requirements)
    .under(...decisions)
    .check(x, errorStatusAndCode(pairs));
  // Whatever code the target chose, a documented one must come with its documented status.
  const documented = op.errors.filter((e) => e.code !== '');
  b.must(...DOCUMENTED_STATUS_RULE[op.document]).check(x, documentedCodeHasItsStatus(documented));
  if (opts.shapeLevel) {
    b.at(opts.shapeLevel, ...(opts.shapeRequirements ?? requirements))
      .under(...decisions)
      .check(x, operationOutcomeShape);
  }
}

export interface PageWalk {
  pages: RespondedExchange[];
  /** The walk reached a page that ends it (DEC-R-06), within its page limit. */
  complete: boolean;
  /** Set when a page had no response (transport error): the walk stopped there. */
  broken?: Exchange;
}

/** The items a page holds: bundle entries, or `expansion.contains` of a ValueSet. */
export type ItemsOf = (body: unknown) => readonly unknown[];
export const bundleItems: ItemsOf = (body) => bundleResources(body);
export const valueSetItems: ItemsOf = (body) =>
  isRecord(body) && isRecord(body.expansion) && Array.isArray(body.expansion.contains) ? body.expansion.contains : [];

/** What tells two items of a walk apart: `resourceType/id`, or a code item's system and code. */
function itemKey(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  const key = resourceKey(item);
  if (key !== undefined) return key;
  return typeof item.code === 'string' ? `${String(item.system ?? '')}|${item.code}` : undefined;
}

/**
 * Requests pages 1..maxPages of one query, `count` asked on each, until a page ends the walk as
 * the paging tags say (core/readers/paging.ts walkStep, DEC-R-06): an empty page, or a short page
 * whose stated count is reached. A page shorter than asked for is not by itself the last: a server
 * may serve fewer records per page than `count` asks for (D1 8: maximum page size "not shown").
 */
export async function walkPages(
  id: OperationId,
  base: CallOptions,
  count: number,
  maxPages: number,
  itemsOf: ItemsOf = bundleItems,
): Promise<PageWalk> {
  const op = operation(id);
  const pages: RespondedExchange[] = [];
  const where = op.method === 'GET' ? 'query' : 'form';
  const seen = new Set<string>();
  let unkeyed = 0;
  for (let page = 1; page <= maxPages; page++) {
    const x = await call(id, { ...base, [where]: { ...base[where], page: String(page), count: String(count) } });
    if (!hasResponse(x) || x.response.status !== 200) return { pages, complete: false, broken: x };
    pages.push(x);
    const items = itemsOf(jsonBody(x));
    for (const item of items) {
      const key = itemKey(item);
      if (key === undefined) unkeyed += 1;
      else seen.add(key);
    }
    if (walkStep(jsonBody(x), items.length, seen.size + unkeyed, count).ends) return { pages, complete: true };
  }
  return { pages, complete: false };
}

/**
 * The whole result of one query, every page of it (pages of 50, at most 20 pages; DEC-R-06): what
 * a sort or a subset is judged over. Its first page is verified as a success answer (and a page
 * not answered 200 where the walk broke); undefined when the result cannot be judged whole, after
 * recording why (a walk that did not end within its pages is a `precondition` skip citing `reqs`).
 */
export async function wholeResult(
  id: OperationId,
  base: CallOptions,
  reqs: readonly string[],
): Promise<RespondedExchange[] | undefined> {
  const walk = await walkPages(id, base, 50, 20);
  const first = walk.broken ?? walk.pages[0];
  if (first === undefined || !verifySuccess(first, id, { success: reqs }, { status: 200 })) return undefined;
  if (walk.broken) {
    verifySuccess(walk.broken, id, { success: reqs }, { status: 200 });
    return undefined;
  }
  if (!walk.complete) {
    on(id)
      .must(...reqs)
      .decided(
        PRECONDITION,
        'skip',
        `The result did not end within ${walk.pages.length} pages of 50: not judged whole`,
      );
    return undefined;
  }
  return walk.pages;
}

/** The items of every page of a walk, in order: the whole result of its query. */
export function walkItems(walk: PageWalk, itemsOf: ItemsOf = bundleItems): unknown[] {
  return walk.pages.flatMap((x) => [...itemsOf(jsonBody(x))]);
}

export interface PagingReqs {
  tags: readonly string[];
  match: readonly string[];
  bounds: readonly string[];
  total: readonly string[];
}

/** Paging rules over a walk: tags present as digits, tags echo the request, bounds, overlap, total. */
export function verifyPaging(id: OperationId, walk: PageWalk, count: number, reqs: PagingReqs): void {
  const op = operation(id);
  const b = on(id);
  if (walk.broken) {
    b.must(...reqs.match).check(walk.broken, successStatus(200), { step: 'paging walk' });
    return;
  }
  walk.pages.forEach((x, i) => {
    b.must(...reqs.tags)
      .under('DEC-D1-02')
      .check(x, pagingTagsPresent(op.pagingTags ?? []));
    b.must(...reqs.match)
      .under('DEC-D1-12')
      .check(x, pagingTagsMatchRequest({ page: i + 1, count }));
    b.must(...reqs.bounds)
      .under('DEC-D1-12')
      .check(x, pageWithinCount(count));
  });
  const last = walk.pages[walk.pages.length - 1];
  if (!last) return;
  // One page only: the check records a skip (overlap needs two pages).
  const overPages = (...r: readonly string[]) =>
    b
      .must(...r)
      .under('DEC-D1-12')
      .with({ exchange: last });
  overPages(...reqs.bounds).check({ pages: walk.pages }, pagesDoNotOverlap);
  overPages(...reqs.total).check({ pages: walk.pages, complete: walk.complete }, totalConsistent);
}

/** Ids of every record a query returns, walking pages of 50 (at most 20 pages). */
export async function collectIds(id: OperationId, base: CallOptions): Promise<Set<string> | undefined> {
  const walk = await walkPages(id, base, 50, 20);
  if (walk.broken || !walk.complete) return undefined;
  const ids = new Set<string>();
  for (const x of walk.pages)
    for (const r of bundleResources(jsonBody(x))) {
      const key = resourceKey(r);
      if (key) ids.add(key);
    }
  return ids;
}
