/**
 * Two answers to the same request, compared (issue 35, the differential run): by status, by the
 * headers the documents name, and by the JSON body path by path: values, types, members present,
 * and arrays in order where the documents fix an order, as a set where they do not. Noise is
 * learnt, not guessed: the paths where two answers of the same primary to the same request differ
 * (ids, timestamps, generated tokens) are left out of the comparison with the candidate.
 *
 * Paths are JSON pointers (`/entry/0/resource/id`); each difference also carries its path with the
 * array indexes abstracted (`/entry/*\/resource/id`), by which differences are grouped and noise is
 * named. Pure: no I/O, no clock.
 */

export type DifferenceKind =
  | 'status-changed'
  | 'header-changed'
  | 'value-changed'
  | 'type-changed'
  | 'member-gone'
  | 'member-new'
  | 'body-changed';

export interface Difference {
  kind: DifferenceKind;
  /** Where: a JSON pointer into the body, `status`, or `header:NAME`. */
  path: string;
  /** The same with array indexes written `*`: the key differences are grouped and noise is named by. */
  abstractPath: string;
  reference?: unknown;
  candidate?: unknown;
}

/** An answer as compared: its status, headers by lower-case name, and its body (parsed when JSON). */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or its text when it is not JSON, or undefined when there is none. */
  body?: unknown;
}

export interface CompareOptions {
  /** Header names (any case) whose values are compared; other headers are not. */
  headers?: readonly string[];
  /** True for an array whose order the documents fix (its abstract path); others compare as sets. */
  ordered?: (abstractPath: string) => boolean;
  /** Abstract paths (and everything under them) left out: learnt noise and configured ignores. */
  ignore?: ReadonlySet<string>;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const escapeToken = (k: string) => k.replaceAll('~', '~0').replaceAll('/', '~1');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Canonical JSON (keys sorted): equal values have equal text whatever their member order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Whether the path, or a path it lies under, is ignored. */
function ignored(abstractPath: string, ignore: ReadonlySet<string> | undefined): boolean {
  if (!ignore || ignore.size === 0) return false;
  for (let p = abstractPath; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (ignore.has(p)) return true;
    if (p === '') return false;
  }
}

/** The key a set's item is paired by: its `id`, its resource's id, or its `fullUrl`; else none. */
function itemKey(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  if (typeof v.id === 'string' || typeof v.id === 'number') return `id:${v.id}`;
  const r = v.resource;
  if (isObject(r) && (typeof r.id === 'string' || typeof r.id === 'number'))
    return `resource:${String(r.resourceType)}/${r.id}`;
  if (typeof v.fullUrl === 'string') return `fullUrl:${v.fullUrl}`;
  return undefined;
}

function compareValues(
  a: unknown,
  b: unknown,
  path: string,
  abstract: string,
  options: CompareOptions,
  out: Difference[],
): void {
  if (ignored(abstract, options.ignore)) return;
  const [ta, tb] = [typeOf(a), typeOf(b)];
  if (ta !== tb) {
    out.push({ kind: 'type-changed', path, abstractPath: abstract, reference: a, candidate: b });
    return;
  }
  if (ta === 'object') {
    const [oa, ob] = [a as Record<string, unknown>, b as Record<string, unknown>];
    for (const k of Object.keys(oa)) {
      const [p, q] = [`${path}/${escapeToken(k)}`, `${abstract}/${escapeToken(k)}`];
      if (!(k in ob)) {
        if (!ignored(q, options.ignore)) out.push({ kind: 'member-gone', path: p, abstractPath: q, reference: oa[k] });
      } else compareValues(oa[k], ob[k], p, q, options, out);
    }
    for (const k of Object.keys(ob)) {
      const [p, q] = [`${path}/${escapeToken(k)}`, `${abstract}/${escapeToken(k)}`];
      if (!(k in oa) && !ignored(q, options.ignore))
        out.push({ kind: 'member-new', path: p, abstractPath: q, candidate: ob[k] });
    }
    return;
  }
  if (ta === 'array') {
    const [xa, xb] = [a as unknown[], b as unknown[]];
    const item = `${abstract}/*`;
    if (options.ordered?.(abstract)) {
      const n = Math.max(xa.length, xb.length);
      for (let i = 0; i < n; i++) {
        const p = `${path}/${i}`;
        if (i >= xb.length) out.push({ kind: 'member-gone', path: p, abstractPath: item, reference: xa[i] });
        else if (i >= xa.length) out.push({ kind: 'member-new', path: p, abstractPath: item, candidate: xb[i] });
        else compareValues(xa[i], xb[i], p, item, options, out);
      }
      return;
    }
    // A set: equal items pair first, then items with the same key (compared member by member), then
    // a last item on each side when neither names an id; what is left is gone or new.
    const left = xa.map((v, i) => ({ v, i }));
    const right = xb.map((v, i) => ({ v, i }));
    for (let i = left.length - 1; i >= 0; i--) {
      const c = canonical(left[i]?.v);
      const j = right.findIndex((r) => canonical(r.v) === c);
      if (j >= 0) {
        left.splice(i, 1);
        right.splice(j, 1);
      }
    }
    for (let i = left.length - 1; i >= 0; i--) {
      const key = itemKey(left[i]?.v);
      const j = key === undefined ? -1 : right.findIndex((r) => itemKey(r.v) === key);
      if (j >= 0) {
        const [l, r] = [left[i], right[j]] as [{ v: unknown; i: number }, { v: unknown; i: number }];
        compareValues(l.v, r.v, `${path}/${l.i}`, item, options, out);
        left.splice(i, 1);
        right.splice(j, 1);
      }
    }
    // One item left on each side, neither naming an id: they are the pair, whatever changed in it.
    if (
      left.length === 1 &&
      right.length === 1 &&
      itemKey(left[0]?.v) === undefined &&
      itemKey(right[0]?.v) === undefined
    ) {
      const [l, r] = [left[0], right[0]] as [{ v: unknown; i: number }, { v: unknown; i: number }];
      compareValues(l.v, r.v, `${path}/${l.i}`, item, options, out);
      return;
    }
    if (ignored(item, options.ignore)) return;
    for (const l of left) out.push({ kind: 'member-gone', path: `${path}/${l.i}`, abstractPath: item, reference: l.v });
    for (const r of right) out.push({ kind: 'member-new', path: `${path}/${r.i}`, abstractPath: item, candidate: r.v });
    return;
  }
  if (a !== b) out.push({ kind: 'value-changed', path, abstractPath: abstract, reference: a, candidate: b });
}

/** The differences of the candidate's answer from the reference's, status and named headers first. */
export function compareAnswers(reference: Answer, candidate: Answer, options: CompareOptions = {}): Difference[] {
  const out: Difference[] = [];
  if (reference.status !== candidate.status && !ignored('status', options.ignore))
    out.push({
      kind: 'status-changed',
      path: 'status',
      abstractPath: 'status',
      reference: reference.status,
      candidate: candidate.status,
    });
  for (const name of options.headers ?? []) {
    const h = name.toLowerCase();
    const [a, b] = [reference.headers[h], candidate.headers[h]];
    const path = `header:${h}`;
    if (a !== b && !ignored(path, options.ignore))
      out.push({ kind: 'header-changed', path, abstractPath: path, reference: a, candidate: b });
  }
  const [ra, rb] = [reference.body, candidate.body];
  if (typeof ra === 'string' || typeof rb === 'string') {
    // Text (not JSON) on either side: compared whole.
    if (ra !== rb && !ignored('', options.ignore))
      out.push({ kind: 'body-changed', path: '', abstractPath: '', reference: ra, candidate: rb });
  } else if (ra !== undefined || rb !== undefined) compareValues(ra, rb, '', '', options, out);
  return out;
}

/**
 * Noise learnt from two answers of the same primary to the same request: the abstract paths where
 * they differ (a generated id, a timestamp, a token). Compared as sets throughout, so that an order
 * a primary does not keep is noise too.
 */
export function learnNoise(first: Answer, second: Answer, options: Omit<CompareOptions, 'ignore'> = {}): Set<string> {
  return new Set(compareAnswers(first, second, options).map((d) => d.abstractPath));
}

/** A difference found on one pair of exchanges, with where the pair is. */
export interface PairedDifference extends Difference {
  operation: string;
  /** The pair's index in the comparison (its example and replay). */
  pair: number;
}

export interface DifferenceGroup {
  operation: string;
  abstractPath: string;
  kind: DifferenceKind;
  count: number;
  /** The first difference of the group, with its pair. */
  example: PairedDifference;
}

/** Differences grouped like findings: by operation, abstract path and kind, most frequent first. */
export function groupDifferences(differences: readonly PairedDifference[]): DifferenceGroup[] {
  const groups = new Map<string, DifferenceGroup>();
  for (const d of differences) {
    const key = `${d.operation}\u0000${d.abstractPath}\u0000${d.kind}`;
    const g = groups.get(key);
    if (g) g.count += 1;
    else groups.set(key, { operation: d.operation, abstractPath: d.abstractPath, kind: d.kind, count: 1, example: d });
  }
  return [...groups.values()].sort(
    (a, b) =>
      b.count - a.count ||
      a.operation.localeCompare(b.operation) ||
      a.abstractPath.localeCompare(b.abstractPath) ||
      a.kind.localeCompare(b.kind),
  );
}
