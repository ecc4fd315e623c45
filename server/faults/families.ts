/**
 * Behavioural fault families derived from the operation table (issue 30, item 1): the behavioural
 * counterpart of the shape faults derived from the schemas (derived.ts). Each family breaks one
 * kind of documented rule and is applied to every operation whose row (spec/operations*.ts:
 * method, parameters with their formats, headers, error table, paging, `_sort` values) says the
 * rule applies to it:
 *
 * - `success-as-5xx`, `success-as-4xx`: a success answered 500 (the route's documented error body,
 *   `MSG_INTERNAL_ERROR` / `MSG_DATABASE_ERROR`), or 4xx with the first 4xx code of the table;
 * - `refusal-accepted`, `refusal-as-5xx`: a 4xx answer turned into the success status (body kept),
 *   or into 500 (body kept);
 * - `code-unlisted`: every code of the operation's error table in an error answer replaced by one
 *   outside it (`MSG_UNLISTED_CODE`); `status-swapped`: the status of an error answer carrying a
 *   code the table ties to one status changed to another status of the same table;
 * - `filter-ignored:<P>`: an optional query or form parameter removed before the handler;
 * - `sort-one-direction`: a descending `_sort` value served ascending;
 * - `page-ignored`, `count-ignored`: the page (count) parameter removed before the handler while
 *   the paging tags still echo the request; `page-overlap`, `page-skip`: page n (n >= 2) starts one
 *   record early, or one record late;
 * - `bearer-not-enforced`: a request without a live bearer token served with one;
 *   `site-header-ignored`: the request served for the token's site whatever `SU-SiteId` says;
 *   `header-ignored:<H>`: a request without a required header `H` served as if it carried it.
 *
 * Every fault marks each answer it changed with the derived faults' header (DERIVED_FAULT_HEADER):
 * the power computation (scripts/power.ts) credits it only with MUST failures of its operation
 * judged on an answer it marked, citing a row its family's predicate (`rowOfFamilyKind`) says is
 * of the kind the family breaks. A fault of a route shared by several operations (find-member v1
 * and v2) edits only the requests of its own operation where the table tells them apart (the
 * version header); otherwise the requests of all of them.
 *
 * What a family breaks is a MUST rule only where the documents say so; a fault the suite does not
 * catch is listed for a reader to weigh against the rows and decisions (the documents may leave
 * that behaviour open), never counted as proof.
 */
import { operation, operations } from '../../spec/operations.ts';
import type { Operation, Parameter } from '../../spec/types.ts';
import { bearerOf, FORM_MEDIA_TYPE, mediaType } from '../router/auth.ts';
import { ApiError, errorReply } from '../router/errors.ts';
import type { Modifier, ModifierScope, SandboxReply, SandboxRequest } from '../router/types.ts';
import { arr, isObject, type JsonObject, parameterOf, withForm, withParameter, withQuery } from '../modifiers/json.ts';
import { DEFAULT_CLIENT_ID } from '../fixtures/clients.ts';
import { DERIVED_FAULT_HEADER } from './derived.ts';

/** Every family fault's name starts so: `family:<family>:<operation>[:<parameter or header>]`. */
export const FAMILY_FAULT_PREFIX = 'family:';

export type FaultFamily =
  | 'success-as-5xx'
  | 'success-as-4xx'
  | 'refusal-accepted'
  | 'refusal-as-5xx'
  | 'code-unlisted'
  | 'status-swapped'
  | 'filter-ignored'
  | 'sort-one-direction'
  | 'page-ignored'
  | 'count-ignored'
  | 'page-overlap'
  | 'page-skip'
  | 'bearer-not-enforced'
  | 'site-header-ignored'
  | 'header-ignored';

export const FAULT_FAMILIES: readonly FaultFamily[] = [
  'success-as-5xx',
  'success-as-4xx',
  'refusal-accepted',
  'refusal-as-5xx',
  'code-unlisted',
  'status-swapped',
  'filter-ignored',
  'sort-one-direction',
  'page-ignored',
  'count-ignored',
  'page-overlap',
  'page-skip',
  'bearer-not-enforced',
  'site-header-ignored',
  'header-ignored',
];

export interface FamilyFaultInfo {
  name: string;
  family: FaultFamily;
  /** The one operation the fault breaks. */
  operations: [string];
  /** The parameter (`filter-ignored`) or header (`header-ignored`) concerned. */
  subject?: string;
  /** One line: what the fault does, for listings. */
  description: string;
  /** One line: the kind of documented rule it breaks (what `rowOfFamilyKind` accepts). */
  breaks: string;
}

/** The code put in place of a table's code (`code-unlisted`): no error table lists it. */
export const UNLISTED_CODE = 'MSG_UNLISTED_CODE';

/** Error table entries whose code is a code (not a message text, as the accounts tables hold). */
const isCodeLike = (code: string) => /^[A-Za-z][A-Za-z0-9_]*$/.test(code);
const codesOf = (op: Operation) => [...new Set(op.errors.map((e) => e.code).filter(isCodeLike))];

/** Parameters with families of their own (paging, sort) or that name no filter (a hint). */
const PAGE_PARAMETERS = ['page', 'pageNumber'];
const COUNT_PARAMETERS = ['count', 'maxRecordsPerPage'];
const NOT_FILTERS = new Set([...PAGE_PARAMETERS, ...COUNT_PARAMETERS, '_sort', 'token_type_hint']);

const filtersOf = (op: Operation): Parameter[] =>
  op.parameters.filter((p) => !p.required && (p.in === 'query' || p.in === 'form') && !NOT_FILTERS.has(p.name));
const pageParameterOf = (op: Operation) => op.parameters.find((p) => PAGE_PARAMETERS.includes(p.name) && !p.required);
const countParameterOf = (op: Operation) => op.parameters.find((p) => COUNT_PARAMETERS.includes(p.name) && !p.required);
const descendingSorts = (op: Operation) =>
  (op.sortValues ?? []).filter((v) => v.startsWith('-') || v.endsWith(':desc'));
/** The ascending value of a descending `_sort` value (`-createdOn` -> `createdOn`, `name:desc` -> `name:asc`). */
export const ascendingOf = (value: string) =>
  value.startsWith('-') ? value.slice(1) : value.replace(/:desc$/, ':asc');
/** Statuses the table ties to exactly one code-like code, by code, where the table has another status. */
function tiedStatuses(op: Operation): Map<string, { status: number; other: number }> {
  const out = new Map<string, { status: number; other: number }>();
  const entries = op.errors.filter((e) => isCodeLike(e.code));
  const statuses = [...new Set(entries.map((e) => e.status))];
  for (const code of codesOf(op)) {
    const own = [...new Set(entries.filter((e) => e.code === code).map((e) => e.status))];
    const other = statuses.find((s) => s !== own[0] && s >= 400 && s < 500) ?? statuses.find((s) => s !== own[0]);
    if (own.length === 1 && other !== undefined) out.set(code, { status: own[0], other });
  }
  return out;
}
const enforced = (op: Operation, name: string) =>
  op.headers.some((h) => h.enforced && h.name.toLowerCase() === name.toLowerCase());
/** Enforced headers other than the token and the site, whose documented value the suite knows. */
const otherRequiredHeaders = (op: Operation) =>
  op.headers.filter(
    (h) =>
      h.enforced &&
      !['authorization', 'su-siteid'].includes(h.name.toLowerCase()) &&
      documentedValue(op, h.name) !== undefined,
  );
function documentedValue(op: Operation, header: string): string | undefined {
  const h = op.headers.find((x) => x.name.toLowerCase() === header.toLowerCase());
  if (!h) return undefined;
  const value = h.value.replace('{version}', op.apiVersion ?? '{version}');
  return /\{/.test(value) ? undefined : value;
}
/**
 * The refusal `success-as-4xx` answers: a code of a bad request, not one saying that no record
 * matches (a target answering that for a configured record is read as not holding the fixture, a
 * run the suite calls inconclusive, not a failure).
 */
const fourxx = (op: Operation) => {
  const refusals = op.errors.filter((e) => e.status >= 400 && e.status < 500 && isCodeLike(e.code));
  return (
    refusals.find((e) => /PARAM|FORMAT|PARSE/.test(e.code)) ??
    refusals.find((e) => !/NOT_FOUND|NO_MATCH|InvalidId|REFERENCE/i.test(e.code))
  );
};

/** The family faults of one operation, in family order. */
export function familyFaultsOf(operationId: string): FamilyFaultInfo[] {
  const op = operations.find((o) => o.id === operationId);
  if (!op) return [];
  const out: FamilyFaultInfo[] = [];
  const add = (family: FaultFamily, description: string, breaks: string, subject?: string) =>
    out.push({
      name: `${FAMILY_FAULT_PREFIX}${family}:${op.id}${subject === undefined ? '' : `:${subject}`}`,
      family,
      operations: [op.id],
      ...(subject === undefined ? {} : { subject }),
      description,
      breaks,
    });
  const refuses = op.errors.some((e) => e.status >= 400 && e.status < 500) || op.headers.some((h) => h.enforced);
  const codes = codesOf(op);
  add('success-as-5xx', 'answers every success with HTTP 500 and an error body', 'the success status or answer');
  const refusal = fourxx(op);
  if (refusal)
    add(
      'success-as-4xx',
      `answers every success with HTTP ${refusal.status} ${refusal.code}`,
      'the success status or answer',
    );
  if (refuses) {
    add(
      'refusal-accepted',
      `answers every 4xx refusal with HTTP ${op.successStatus ?? 200} (body kept)`,
      'a documented refusal (its status or code)',
    );
    add('refusal-as-5xx', 'answers every 4xx refusal with HTTP 500 (body kept)', 'a documented refusal (its status)');
  }
  if (codes.length > 0)
    add(
      'code-unlisted',
      `replaces every code of its error table in an error answer with ${UNLISTED_CODE}`,
      'the error code of a documented refusal',
    );
  const tied = tiedStatuses(op);
  if (tied.size > 0)
    add(
      'status-swapped',
      `answers an error of a code the table ties to one status with another status of the table (${[...tied]
        .map(([c, s]) => `${c} ${s.status}->${s.other}`)
        .join(', ')})`,
      'the status the error table ties to a code',
    );
  for (const p of filtersOf(op))
    add(
      'filter-ignored',
      `ignores the parameter ${p.name} (removed before the handler)`,
      `the parameter ${p.name}`,
      p.name,
    );
  if (descendingSorts(op).length > 0)
    add(
      'sort-one-direction',
      `serves the descending _sort values (${descendingSorts(op).join(', ')}) ascending`,
      'the sort order',
    );
  const page = pageParameterOf(op);
  const count = countParameterOf(op);
  if (page)
    add('page-ignored', `ignores ${page.name} (always page 1), the page tag echoing the request`, 'paging by page');
  if (count)
    add(
      'count-ignored',
      `ignores ${count.name} (the default page size), the count tag echoing the request`,
      'the page size',
    );
  if (page?.name === 'page' && count?.name === 'count' && op.pagingTags?.includes('page')) {
    add('page-overlap', 'starts page n (n >= 2) one record early (pages overlap)', 'paging by page');
    add('page-skip', 'starts page n (n >= 2) one record late (a record is skipped)', 'paging by page');
  }
  if (enforced(op, 'Authorization'))
    add('bearer-not-enforced', 'serves a request without a live bearer token as a valid one', 'the bearer token');
  if (enforced(op, 'SU-SiteId'))
    add(
      'site-header-ignored',
      "serves every request for the token's site, whatever SU-SiteId says (or without it)",
      'the SU-SiteId header',
    );
  for (const h of otherRequiredHeaders(op))
    add('header-ignored', `serves a request without ${h.name} as if it carried it`, `the header ${h.name}`, h.name);
  return out;
}

const computed = new Map<string, Map<string, FamilyFaultInfo>>();
function cached(operationId: string): Map<string, FamilyFaultInfo> {
  let entry = computed.get(operationId);
  if (!entry) {
    entry = new Map(familyFaultsOf(operationId).map((f) => [f.name, f]));
    computed.set(operationId, entry);
  }
  return entry;
}

/** Every family fault, operation by operation in table order. */
export function familyFaults(): readonly FamilyFaultInfo[] {
  return operations.flatMap((o) => [...cached(o.id).values()]);
}

/** The family fault of this name, or undefined. */
export function familyFaultInfo(name: string): FamilyFaultInfo | undefined {
  if (!name.startsWith(FAMILY_FAULT_PREFIX)) return undefined;
  const operationId = name.slice(FAMILY_FAULT_PREFIX.length).split(':')[1];
  return operationId === undefined ? undefined : cached(operationId).get(name);
}

export function isFamilyFault(name: string): boolean {
  return familyFaultInfo(name) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Which rows a family breaks: the predicate the power computation applies to a cited row.

/** A row stating the success status or answer: a 2xx status, success, what a request returns, is served or answered with. */
const HTTP_SUCCESS =
  /\bHTTP 2\d\d\b|\b20[0-4]\b|\b2xx\b|\bsuccess|\breturns?\b|\bserved\b|\banswer(s|ed)? (with|HTTP)\b|\bresponse is\b|\banswers [A-Z]/i;
const REFUSAL = /\b4\d\d\b|refus|reject|\berror|invalid|missing|unauthori[sz]ed|forbidden|not found|no match/i;

/** True when the text names the word as a token (`page`, not `pageNumber`; `_since`, `near-distance`). */
export function textNamesToken(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`, 'i').test(text);
}

/**
 * True when the row (its text and operations) is of the kind the fault's family breaks, so that a
 * failure citing it on an answer the fault changed proves it: a success row for a success turned
 * into an error, a row naming the parameter for an ignored filter, and so on. A row of another
 * operation is never of its kind.
 */
export function rowOfFamilyKind(fault: FamilyFaultInfo, row: { text: string; operations: readonly string[] }): boolean {
  const op = operation(fault.operations[0]);
  if (!row.operations.includes(op.id)) return false;
  const t = row.text;
  const namesCode = codesOf(op).some((c) => textNamesToken(t, c));
  switch (fault.family) {
    case 'success-as-5xx':
    case 'success-as-4xx':
      return HTTP_SUCCESS.test(t) && (!REFUSAL.test(t) || /\bHTTP 2\d\d\b/.test(t));
    case 'refusal-accepted':
      return REFUSAL.test(t) || namesCode;
    case 'refusal-as-5xx':
      // A row that a request the server may refuse "is not answered with a 5xx status" is the rule broken.
      return REFUSAL.test(t) || namesCode || /\b5xx\b/i.test(t);
    case 'code-unlisted':
      return namesCode || /\berror codes?\b|\bcodes? of (the|its)\b.*\btable\b|\bcode\b.*\btable\b/i.test(t);
    case 'status-swapped':
      return namesCode || /\b[45]\d\d\b/.test(t);
    case 'filter-ignored':
      // `service-code` is also written "service code".
      return (
        fault.subject !== undefined &&
        (textNamesToken(t, fault.subject) ||
          (fault.subject.includes('-') && textNamesToken(t, fault.subject.replace(/-/g, ' '))))
      );
    case 'sort-one-direction':
      return /_sort|\bsort|descending|ascending|\border(ed)?\b/i.test(t);
    case 'page-ignored':
    case 'page-overlap':
    case 'page-skip':
      return /\bpages?\b|pageNumber|paging|paged|overlap/i.test(t);
    case 'count-ignored':
      return /\bcount\b|maxRecordsPerPage|page size|per page/i.test(t);
    case 'bearer-not-enforced':
      return /token|Authori[sz]ation|bearer|\b401\b|unauthori[sz]ed|credential/i.test(t);
    case 'site-header-ignored':
      return /SU-SiteId|\bsites?\b/i.test(t);
    case 'header-ignored':
      return (
        fault.subject !== undefined &&
        (textNamesToken(t, fault.subject) || (/version/i.test(fault.subject) && /\bversion\b/i.test(t)))
      );
  }
}

// ---------------------------------------------------------------------------------------------
// The modifiers.

/**
 * Replies each family fault changed in this process, by name: a fault that never changed a reply
 * broke nothing the suite could see (scripts/power.ts tells it apart from a fault the suite missed).
 */
const hits = new Map<string, number>();
export function familyFaultHits(): ReadonlyMap<string, number> {
  return hits;
}
export function resetFamilyFaultHits(): void {
  hits.clear();
}

/** The reply with the fault's mark added (and its hit counted). */
function marked(fault: FamilyFaultInfo, reply: SandboxReply): SandboxReply {
  hits.set(fault.name, (hits.get(fault.name) ?? 0) + 1);
  const mark = reply.headers?.[DERIVED_FAULT_HEADER];
  return {
    ...reply,
    headers: { ...reply.headers, [DERIVED_FAULT_HEADER]: mark ? `${mark}, ${fault.name}` : fault.name },
  };
}

/**
 * Whether the request is one of the fault's operation: on a route shared by operations of
 * different API versions (find-member v1 and v2), the version header tells; otherwise every
 * request of the route is (the operations cannot be told apart before the handler).
 */
function concerns(fault: FamilyFaultInfo, routeOperations: readonly string[], req: SandboxRequest): boolean {
  if (routeOperations.length <= 1) return true;
  const op = operation(fault.operations[0]);
  const versions = new Set(routeOperations.map((o) => operation(o).apiVersion));
  if (op.apiVersion === undefined || versions.size <= 1) return true;
  const sent = (req.headers['svc-api-version'] ?? '').trim();
  // A request without the version header is one of the fault's only for the fault that supplies it.
  return sent === op.apiVersion || (sent === '' && fault.family === 'header-ignored');
}

const isSuccess = (s: number) => s >= 200 && s <= 299;
const isRefusal = (s: number) => s >= 400 && s <= 499;

/** Every string of the body equal to one of the codes replaced by UNLISTED_CODE (a copy), and how many. */
function replaceCodes(body: unknown, codes: readonly string[]): { body: unknown; changed: number } {
  let changed = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && codes.includes(v)) {
      changed++;
      return UNLISTED_CODE;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const copy: JsonObject = {};
    for (const [k, x] of Object.entries(v)) copy[k] = k === UNLISTED_CODE ? x : walk(x);
    // `InvalidId` may be a member name (DEC-D1-11).
    for (const c of codes)
      if (Object.hasOwn(copy, c)) {
        copy[UNLISTED_CODE] = copy[c];
        delete copy[c];
        changed++;
      }
    return copy;
  };
  const next = walk(body);
  return { body: changed > 0 ? next : body, changed };
}

/** A reply-only fault: `edit` answers the changed reply, or undefined to leave it as it is. */
function replyFault(
  fault: FamilyFaultInfo,
  edit: (reply: SandboxReply, scope: ModifierScope) => SandboxReply | undefined | Promise<SandboxReply | undefined>,
): Modifier {
  return {
    reply: async (reply, scope) => {
      if (!concerns(fault, scope.operations, scope.received)) return reply;
      const next = await edit(reply, scope);
      return next === undefined ? reply : marked(fault, next);
    },
  };
}

/** A request fault: `rewrite` answers the changed request, or undefined; a reply to a changed request is marked. */
function requestFault(
  fault: FamilyFaultInfo,
  rewrite: (
    req: SandboxRequest,
    scope: Omit<ModifierScope, 'request' | 'received'>,
  ) => SandboxRequest | undefined | Promise<SandboxRequest | undefined>,
  editReply?: (reply: SandboxReply, scope: ModifierScope) => SandboxReply,
): Modifier {
  return {
    request: async (req, scope) => {
      if (!concerns(fault, scope.operations, req)) return req;
      const next = await rewrite(req, scope);
      if (next === undefined) return req;
      // The changed request carries the fault's name (later modifiers copy headers), so that its
      // reply, and only its, is marked.
      const noted = next.headers[CHANGED_BY];
      return { ...next, headers: { ...next.headers, [CHANGED_BY]: noted ? `${noted}, ${fault.name}` : fault.name } };
    },
    reply: (reply, scope) => {
      const noted = (scope.request.headers[CHANGED_BY] ?? '').split(/,\s*/);
      if (!noted.includes(fault.name)) return reply;
      return marked(fault, editReply ? editReply(reply, scope) : reply);
    },
  };
}

/** The request header naming the family faults that changed a request (never sent by a client). */
const CHANGED_BY = 'x-sandbox-family-fault-changed';

const hasParameter = (req: SandboxRequest, name: string) => parameterOf(req, name) !== undefined;
const isPositiveInteger = (v: string | undefined): v is string => v !== undefined && /^[1-9]\d{0,8}$/.test(v.trim());

/** The reply's paging tags (`meta.tag`, code `page` / `count`) set to the request's values. */
function echoTags(reply: SandboxReply, values: Record<string, string | undefined>): SandboxReply {
  const body = reply.body;
  if (!isObject(body) || !isObject(body.meta) || !Array.isArray(body.meta.tag)) return reply;
  const tag = arr(body.meta.tag).map((t) => {
    if (!isObject(t) || typeof t.code !== 'string') return t;
    const v = values[t.code];
    return v === undefined ? t : { ...t, display: v };
  });
  return { ...reply, body: { ...body, meta: { ...body.meta, tag } } };
}

/** The value with every `expansion.tag` set too (a ValueSet carries its paging tags there, DEC-D2-04). */
function echoExpansionTags(reply: SandboxReply, values: Record<string, string | undefined>): SandboxReply {
  const withMeta = echoTags(reply, values);
  const body = withMeta.body;
  if (!isObject(body) || !isObject(body.expansion)) return withMeta;
  const inner = echoTags({ status: 200, body: body.expansion }, values).body;
  return { ...withMeta, body: { ...body, expansion: inner } };
}

/** Page n of count c cut out of a reply holding records 1 .. n*c+1, shifted by `shift` records. */
function cutPage(reply: SandboxReply, page: number, count: number, shift: number): SandboxReply {
  const body = reply.body;
  const start = (page - 1) * count + shift;
  const tags = { page: String(page), count: String(count) };
  if (isObject(body) && Array.isArray(body.entry)) {
    // Included resources (`_include`) belong to a page's records: such answers are not cut.
    if (body.entry.some((e) => isObject(e) && isObject(e.search) && e.search.mode === 'include')) return reply;
    return echoTags({ ...reply, body: { ...body, entry: body.entry.slice(start, start + count) } }, tags);
  }
  if (isObject(body) && isObject(body.expansion) && Array.isArray(body.expansion.contains)) {
    const expansion = {
      ...body.expansion,
      contains: body.expansion.contains.slice(start, start + count),
      offset: (page - 1) * count,
    };
    return echoExpansionTags({ ...reply, body: { ...body, expansion } }, tags);
  }
  return reply;
}

/** The largest count the rewritten request of `page-overlap` / `page-skip` may ask (the code sets' bound). */
const LARGEST_COUNT = 1000;

/** The modifier of one family fault. */
export function familyFaultModifier(fault: FamilyFaultInfo): Modifier {
  const op = operation(fault.operations[0]);
  switch (fault.family) {
    case 'success-as-5xx':
      return replyFault(fault, (reply, scope) =>
        isSuccess(reply.status)
          ? errorReply(new Error(`fault ${fault.name}`), scope.operations.length > 0 ? scope.operations : [op.id])
          : undefined,
      );
    case 'success-as-4xx': {
      const refusal = fourxx(op);
      return replyFault(fault, (reply, scope) =>
        isSuccess(reply.status) && refusal
          ? errorReply(new ApiError(refusal.status, refusal.code, `fault ${fault.name}`), scope.operations)
          : undefined,
      );
    }
    case 'refusal-accepted':
      return replyFault(fault, (reply) =>
        isRefusal(reply.status) ? { ...reply, status: op.successStatus ?? 200 } : undefined,
      );
    case 'refusal-as-5xx':
      return replyFault(fault, (reply) => (isRefusal(reply.status) ? { ...reply, status: 500 } : undefined));
    case 'code-unlisted': {
      const codes = codesOf(op);
      return replyFault(fault, (reply) => {
        if (reply.status < 400 || reply.body === undefined) return undefined;
        const edited = replaceCodes(reply.body, codes);
        return edited.changed > 0 ? { ...reply, body: edited.body } : undefined;
      });
    }
    case 'status-swapped': {
      const tied = tiedStatuses(op);
      return replyFault(fault, (reply) => {
        if (reply.status < 400) return undefined;
        const text = JSON.stringify(reply.body ?? null);
        const hit = [...tied].find(([code, s]) => s.status === reply.status && textNamesToken(text, code));
        return hit ? { ...reply, status: hit[1].other } : undefined;
      });
    }
    case 'filter-ignored': {
      const name = fault.subject as string;
      return requestFault(fault, (req) =>
        hasParameter(req, name) ? withParameter(req, name, () => undefined) : undefined,
      );
    }
    case 'sort-one-direction': {
      const descending = descendingSorts(op);
      return requestFault(fault, (req) => {
        const value = parameterOf(req, '_sort');
        if (value === undefined) return undefined;
        const parts = value.split(',');
        const next = parts.map((v) => (descending.includes(v.trim()) ? ascendingOf(v.trim()) : v));
        return next.join(',') === value ? undefined : withParameter(req, '_sort', () => next.join(','));
      });
    }
    case 'page-ignored': {
      const name = pageParameterOf(op)?.name as string;
      return requestFault(
        fault,
        (req) => {
          const v = parameterOf(req, name);
          return isPositiveInteger(v) && Number(v) > 1 ? withParameter(req, name, () => undefined) : undefined;
        },
        (reply, { received }) => echoExpansionTags(reply, { page: parameterOf(received, name)?.trim() }),
      );
    }
    case 'count-ignored': {
      const name = countParameterOf(op)?.name as string;
      return requestFault(
        fault,
        (req) => (isPositiveInteger(parameterOf(req, name)) ? withParameter(req, name, () => undefined) : undefined),
        (reply, { received }) => echoExpansionTags(reply, { count: parameterOf(received, name)?.trim() }),
      );
    }
    case 'page-overlap':
    case 'page-skip': {
      const shift = fault.family === 'page-overlap' ? -1 : 1;
      return requestFault(
        fault,
        (req) => {
          const page = parameterOf(req, 'page');
          const count = parameterOf(req, 'count');
          if (!isPositiveInteger(page) || !isPositiveInteger(count) || Number(page) < 2) return undefined;
          const wanted = Number(page) * Number(count) + 1;
          if (wanted > LARGEST_COUNT) return undefined;
          const set = (p: URLSearchParams) => {
            if (p.has('page')) p.set('page', '1');
            if (p.has('count')) p.set('count', String(wanted));
          };
          return withForm(withQuery(req, set), set);
        },
        (reply, { received }) =>
          isSuccess(reply.status)
            ? cutPage(reply, Number(parameterOf(received, 'page')), Number(parameterOf(received, 'count')), shift)
            : reply,
      );
    }
    case 'bearer-not-enforced':
      return requestFault(fault, async (req, { repo }) => {
        const token = bearerOf(req);
        if (token !== undefined && ((await repo.accessGrant(token)) || (await repo.clientForToken(token))))
          return undefined;
        const live = op.service === 'diary' ? await repo.issueDiaryToken() : await repo.issueToken(DEFAULT_CLIENT_ID);
        return { ...req, headers: { ...req.headers, authorization: `Bearer ${live}` } };
      });
    case 'site-header-ignored':
      return requestFault(fault, async (req, { repo }) => {
        const token = bearerOf(req);
        const client = token === undefined ? undefined : await repo.clientForToken(token);
        if (!client || (req.headers['su-siteid'] ?? '').trim() === client.siteId) return undefined;
        return { ...req, headers: { ...req.headers, 'su-siteid': client.siteId } };
      });
    case 'header-ignored': {
      const header = (fault.subject as string).toLowerCase();
      const value = documentedValue(op, header) as string;
      return requestFault(fault, (req) => {
        const sent = req.headers[header];
        if (header === 'content-type') {
          if (mediaType(sent) === mediaType(value)) return undefined;
          const next = { ...req, headers: { ...req.headers, [header]: value } };
          return mediaType(value) === FORM_MEDIA_TYPE ? { ...next, form: new URLSearchParams(req.rawBody) } : next;
        }
        if ((sent ?? '').trim() !== '') return undefined;
        return { ...req, headers: { ...req.headers, [header]: value } };
      });
    }
  }
}
