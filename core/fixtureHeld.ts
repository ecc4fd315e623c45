/**
 * Fixtures are not the server's fault (issue 22). A value the config names (a bill id, a member to
 * find) that the target answers it does not know is wanting data, not a failure of the server:
 * the results that needed it are skipped (`fixture-held`, core/decidedOutcomes.ts). Two things
 * decide it here, without any suite's help: whether a request carried a fixture's value (a path
 * segment, a query, header, form or multipart value, a JSON leaf), and whether the target has
 * shown it holds the value (it returned it in a success answer, or served a request naming it),
 * in which case a not-found answer is the server's fault and is judged as usual.
 */
import type { ErrorEntry } from '../spec/types.ts';
import type { Exchange, ExchangeRequest } from './exchange.ts';
import { bundleResources, hasResponse, isRecord, jsonBody, parseJson } from './exchange.ts';
import { errorCodesOf } from './readers/errorCode.ts';

/**
 * Entries that say "invalid" of a value only the target itself issues, so that an invalid value is
 * one the target does not know. Document 3, 4.1: Get event info takes "query `sns_id` (required;
 * generated when the event is created or updated)", and 7: "Get event info | 403 | SNS_ID is
 * Invalid. | invalid `sns_id`". The documents give an `sns_id` no form but that of a value the
 * target generated, so the one way a configured `sns_id` is invalid is that the target never
 * generated it (DEC-D3-43 sends an invented `NO-SUCH-SNS-000` for this very answer). Not the
 * `authorisation is invalid` of Introspect, which is about the caller.
 */
const INVALID_MEANS_UNKNOWN: ReadonlySet<string> = new Set(['SNS_ID is Invalid.']);

/**
 * Whether an entry of an error table says the target does not know a value: HTTP 404, or a code or
 * meaning saying no match, or an id, reference, entity, code or user not found (NO_MATCH_FOUND,
 * InvalidId, MSG_ENTITY_NOT_FOUND_IN_DATABASE, MSG_REFERENCE_ID_NOT_FOUND, `Secret code not found`
 * ...; not `userId not found in authentication token` nor `Features not found`, which are about
 * the caller), or an invalid value only the target issues (`SNS_ID is Invalid.`, above).
 */
export const saysNotFound = (e: ErrorEntry): boolean =>
  e.status === 404 ||
  INVALID_MEANS_UNKNOWN.has(e.code) ||
  /not_found|\bno match|\b(id|reference|entity|code|user) not found\b/i.test(`${e.code} ${e.meaning}`);

/**
 * The target's own word that it does not know what the request named: HTTP 404, or a 4xx carrying
 * a not-found code of the operation's error table (a code, or an accounts `message`). A 5xx, a
 * success of whatever shape or another refusal is not: those are judged. Returns how the answer
 * said it (`HTTP 404 MSG_ENTITY_NOT_FOUND`), or undefined.
 */
export function notFoundAnswer(x: Exchange, errors: readonly ErrorEntry[]): string | undefined {
  if (!hasResponse(x)) return undefined;
  const status = x.response.status;
  if (status < 400 || status > 499) return undefined;
  const body = jsonBody(x);
  const message = isRecord(body) && typeof body.message === 'string' ? [body.message.trim()] : [];
  const codes = [...errorCodesOf(body, x.response.bodyText), ...message];
  const code = errors.filter(saysNotFound).find((e) => e.code !== '' && codes.includes(e.code))?.code;
  if (code !== undefined) return `HTTP ${status} ${code}`;
  return status === 404 ? 'HTTP 404' : undefined;
}

/** A configured fixture: its `section.name` path and its value. */
export interface ConfiguredFixture {
  path: string;
  value: unknown;
}

const scalar = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * The values a fixture names: the value itself, or the text members of a search fixture (a member
 * search without its step-2 refinements, the fields of a hospital-claims search). Empty values
 * name nothing.
 */
export function namedValues(fixture: unknown): string[] {
  const one = scalar(fixture);
  if (one !== undefined) return one.trim() === '' ? [] : [one];
  if (!isRecord(fixture)) return [];
  return Object.values(fixture).flatMap((v) => {
    const s = scalar(v);
    return s === undefined || s.trim() === '' ? [] : [s];
  });
}

/** Every text and number leaf of a JSON value. */
function leavesOf(value: unknown, into: Set<string>): Set<string> {
  const s = scalar(value);
  if (s !== undefined) into.add(s);
  else if (Array.isArray(value)) for (const v of value) leavesOf(v, into);
  else if (isRecord(value)) for (const v of Object.values(value)) leavesOf(v, into);
  return into;
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The fields of a multipart/form-data body, by value. */
function multipartValues(body: string): string[] {
  return [...body.matchAll(/Content-Disposition:[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n--/gi)].map(
    (m) => m[1],
  );
}

/**
 * The values a request carries: its decoded path segments, query values, header values, and its
 * body's form or multipart fields or JSON leaves.
 */
export function requestValues(req: ExchangeRequest): Set<string> {
  const values = new Set<string>();
  try {
    const url = new URL(req.url);
    for (const segment of url.pathname.split('/')) if (segment !== '') values.add(decode(segment));
    for (const v of url.searchParams.values()) values.add(v);
  } catch {
    // An unparsable URL carries nothing we can name.
  }
  for (const v of Object.values(req.headers)) values.add(v);
  const body = req.body;
  if (body === undefined || body === '') return values;
  const contentType =
    Object.entries(req.headers)
      .find(([k]) => k.toLowerCase() === 'content-type')?.[1]
      ?.toLowerCase() ?? '';
  if (contentType.includes('multipart/form-data')) {
    for (const v of multipartValues(body)) values.add(v);
    return values;
  }
  try {
    leavesOf(JSON.parse(body) as unknown, values);
  } catch {
    for (const v of new URLSearchParams(body).values()) values.add(v);
  }
  return values;
}

/** Whether a request with these values carries the fixture: its value, or every text member of a search fixture. */
export function carries(values: ReadonlySet<string>, fixture: unknown): boolean {
  const named = namedValues(fixture);
  return named.length > 0 && named.every((v) => values.has(v));
}

/** A success answer that holds nothing: an empty JSON list or a Bundle without entries. */
function emptyCollection(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  return isRecord(body) && body.resourceType === 'Bundle' && bundleResources(body).length === 0;
}

/**
 * What the target has shown it holds, for the fixtures of one suite file: a fixture is held once a
 * success answer carries its value as a JSON leaf (a search returned the bill id), or once a
 * request naming it was served with something other than an empty list (the member was found).
 */
export class HeldFixtures {
  readonly #held = new Set<string>();

  /** Learns from one exchange which of the configured fixtures the target holds. */
  note(x: Exchange, configured: readonly ConfiguredFixture[]): void {
    if (!hasResponse(x) || x.response.status < 200 || x.response.status > 299) return;
    const open = configured.filter((f) => !this.#held.has(f.path));
    if (open.length === 0) return;
    const text = x.response.bodyText;
    // Parsed only when a fixture could be in it (memoised per response, core/exchange.ts).
    const body = () => {
      const parsed = parseJson(x);
      return parsed.ok ? { value: parsed.value } : undefined;
    };
    let leaves: Set<string> | undefined;
    let sent: Set<string> | undefined;
    for (const f of open) {
      const named = namedValues(f.value);
      if (named.length === 0) continue;
      // Returned by the target: a single value found among the answer's leaves.
      if (named.length === 1 && text.includes(named[0])) {
        leaves ??= leavesOf(body()?.value, new Set());
        if (leaves.has(named[0])) {
          this.#held.add(f.path);
          continue;
        }
      }
      // Served for a request naming it.
      sent ??= requestValues(x.request);
      if (carries(sent, f.value) && !emptyCollection(body()?.value)) this.#held.add(f.path);
    }
  }

  isHeld(path: string): boolean {
    return this.#held.has(path);
  }
}
