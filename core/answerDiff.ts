/**
 * Two answers to the same request, compared (issue 35, the differential run): by status, by the
 * headers the documents name, and by the JSON body path by path: values, types, members present,
 * and arrays in order where the documents fix an order (a run of ties, items the caller says may
 * come in either order, as a set), as a set where they do not. Noise is
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
  | 'body-changed'
  /** A call one run made and the other did not (the runs took other paths): path ''. */
  | 'exchange-gone'
  | 'exchange-new';

export interface Difference {
  kind: DifferenceKind;
  /** Where: a JSON pointer into the body, `status`, or `header:NAME`. */
  path: string;
  /** The same with array indexes written `*`: the key differences are grouped and noise is named by. */
  abstractPath: string;
  /**
   * Where it is in the candidate's answer, when not at `path`: items of an array compared as a set
   * pair whatever their places (`path` is then the reference's place).
   */
  candidatePath?: string;
  reference?: unknown;
  candidate?: unknown;
}

/**
 * Abstract paths left out of a comparison (a Set of them, or rules that match many: noise learnt,
 * documented volatile members, configured ignores); a path lies under an ignored one too.
 */
export interface Ignore {
  has(abstractPath: string): boolean;
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
  /**
   * In an array compared in order: whether two of the reference's items may come in either order
   * (equal sort keys: "ties may come in any order"). A run of such items is compared as a set, the
   * candidate's items at the same places; the rest in order.
   */
  tied?: (abstractPath: string, a: unknown, b: unknown) => boolean;
  /** Abstract paths (and everything under them) left out: learnt noise and configured ignores. */
  ignore?: Ignore;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const escapeToken = (k: string) => k.replaceAll('~', '~0').replaceAll('/', '~1');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Canonical JSON (keys sorted): equal values have equal text whatever their member order. Members
 * ignored at `abstract` are left out, so that set items differing only in noise pair as equal.
 */
function canonical(v: unknown, abstract = '', ignore?: Ignore): string {
  if (Array.isArray(v)) return `[${v.map((item) => canonical(item, `${abstract}/*`, ignore)).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .filter((k) => !ignore?.has(`${abstract}/${escapeToken(k)}`))
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k], `${abstract}/${escapeToken(k)}`, ignore)}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/**
 * Whether the path, or a path it lies under, is ignored. A body path lies under `''` (the whole
 * body); `status` and `header:NAME` lie under nothing.
 */
function ignored(abstractPath: string, ignore: Ignore | undefined): boolean {
  if (!ignore || (ignore instanceof Set && ignore.size === 0)) return false;
  if (abstractPath !== '' && !abstractPath.startsWith('/')) return ignore.has(abstractPath);
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

/**
 * Compares `a` (the reference's value, at `path`) with `b` (the candidate's, at `cpath`: another
 * place where set items paired at other indexes).
 */
function compareValues(
  a: unknown,
  b: unknown,
  path: string,
  abstract: string,
  options: CompareOptions,
  out: Difference[],
  cpath: string = path,
): void {
  if (ignored(abstract, options.ignore)) return;
  const push = (d: Difference, candidatePath: string) =>
    out.push(candidatePath === d.path ? d : { ...d, candidatePath });
  const [ta, tb] = [typeOf(a), typeOf(b)];
  if (ta !== tb) {
    push({ kind: 'type-changed', path, abstractPath: abstract, reference: a, candidate: b }, cpath);
    return;
  }
  if (ta === 'object') {
    const [oa, ob] = [a as Record<string, unknown>, b as Record<string, unknown>];
    for (const k of Object.keys(oa)) {
      const [p, q, c] = [`${path}/${escapeToken(k)}`, `${abstract}/${escapeToken(k)}`, `${cpath}/${escapeToken(k)}`];
      if (!(k in ob)) {
        if (!ignored(q, options.ignore)) out.push({ kind: 'member-gone', path: p, abstractPath: q, reference: oa[k] });
      } else compareValues(oa[k], ob[k], p, q, options, out, c);
    }
    for (const k of Object.keys(ob)) {
      const [p, q, c] = [`${path}/${escapeToken(k)}`, `${abstract}/${escapeToken(k)}`, `${cpath}/${escapeToken(k)}`];
      if (!(k in oa) && !ignored(q, options.ignore))
        push({ kind: 'member-new', path: p, abstractPath: q, candidate: ob[k] }, c);
    }
    return;
  }
  if (ta === 'array') {
    const [xa, xb] = [a as unknown[], b as unknown[]];
    const item = `${abstract}/*`;
    if (options.ordered?.(abstract)) {
      const n = Math.max(xa.length, xb.length);
      for (let i = 0; i < n; ) {
        // A run of the reference's items tied with its first (equal sort keys) compares as a set.
        let end = i + 1;
        while (end < xa.length && options.tied?.(abstract, xa[i], xa[end])) end++;
        if (end - i > 1) {
          const places = (x: unknown[]) => x.slice(i, end).map((v, k) => ({ v, i: i + k }));
          compareSet(places(xa), places(xb), path, cpath, item, options, out);
          i = end;
          continue;
        }
        const [p, c] = [`${path}/${i}`, `${cpath}/${i}`];
        if (i >= xb.length) {
          if (!ignored(item, options.ignore))
            out.push({ kind: 'member-gone', path: p, abstractPath: item, reference: xa[i] });
        } else if (i >= xa.length) {
          if (!ignored(item, options.ignore))
            push({ kind: 'member-new', path: p, abstractPath: item, candidate: xb[i] }, c);
        } else compareValues(xa[i], xb[i], p, item, options, out, c);
        i++;
      }
      return;
    }
    compareSet(
      xa.map((v, i) => ({ v, i })),
      xb.map((v, i) => ({ v, i })),
      path,
      cpath,
      item,
      options,
      out,
    );
    return;
  }
  if (a !== b) push({ kind: 'value-changed', path, abstractPath: abstract, reference: a, candidate: b }, cpath);
}

/**
 * Items of an array compared as a set (each with its index in its array): equal items pair
 * first, then items with the same key (compared member by member), then a last item on each side
 * when neither names an id; what is left is gone or new. `path` and `cpath` are the array's places.
 */
function compareSet(
  xa: readonly { v: unknown; i: number }[],
  xb: readonly { v: unknown; i: number }[],
  path: string,
  cpath: string,
  item: string,
  options: CompareOptions,
  out: Difference[],
): void {
  // Each item's canonical text is made once: a long list is paired in linear time.
  const text = (v: unknown) => canonical(v, item, options.ignore);
  let left = xa.map((x) => ({ ...x, t: text(x.v) }));
  let right = xb.map((x) => ({ ...x, t: text(x.v) }));
  const equal = new Map<string, number[]>();
  right.forEach((r, j) => {
    const list = equal.get(r.t);
    if (list) list.push(j);
    else equal.set(r.t, [j]);
  });
  const pairedRight = new Set<number>();
  left = left.filter((l) => {
    const j = equal.get(l.t)?.shift();
    if (j === undefined) return true;
    pairedRight.add(j);
    return false;
  });
  right = right.filter((_, j) => !pairedRight.has(j));
  const byKey = new Map<string, number[]>();
  right.forEach((r, j) => {
    const key = itemKey(r.v);
    if (key === undefined) return;
    const list = byKey.get(key);
    if (list) list.push(j);
    else byKey.set(key, [j]);
  });
  const keyedRight = new Set<number>();
  left = left.filter((l) => {
    const key = itemKey(l.v);
    const j = key === undefined ? undefined : byKey.get(key)?.shift();
    const r = j === undefined ? undefined : right[j];
    if (j === undefined || r === undefined) return true;
    keyedRight.add(j);
    compareValues(l.v, r.v, `${path}/${l.i}`, item, options, out, `${cpath}/${r.i}`);
    return false;
  });
  right = right.filter((_, j) => !keyedRight.has(j));
  // One item left on each side, neither naming an id: they are the pair, whatever changed in it.
  if (
    left.length === 1 &&
    right.length === 1 &&
    itemKey(left[0]?.v) === undefined &&
    itemKey(right[0]?.v) === undefined
  ) {
    const [l, r] = [left[0], right[0]] as [{ v: unknown; i: number }, { v: unknown; i: number }];
    compareValues(l.v, r.v, `${path}/${l.i}`, item, options, out, `${cpath}/${r.i}`);
    return;
  }
  if (ignored(item, options.ignore)) return;
  for (const l of left) out.push({ kind: 'member-gone', path: `${path}/${l.i}`, abstractPath: item, reference: l.v });
  for (const r of right) out.push({ kind: 'member-new', path: `${cpath}/${r.i}`, abstractPath: item, candidate: r.v });
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
  } else if ((ra !== undefined || rb !== undefined) && JSON.stringify(ra) !== JSON.stringify(rb)) {
    // The same JSON text (most pairs) has nothing that differs, whatever is ignored.
    compareValues(ra, rb, '', '', options, out);
  }
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
  /** The pairs the group's differences were found on, each once, in the order first seen. */
  pairs: number[];
}

/** Differences grouped like findings: by operation, abstract path and kind, most frequent first. */
export function groupDifferences(differences: readonly PairedDifference[]): DifferenceGroup[] {
  const groups = new Map<string, DifferenceGroup & { seen: Set<number> }>();
  for (const d of differences) {
    const key = `${d.operation}\u0000${d.abstractPath}\u0000${d.kind}`;
    const g = groups.get(key);
    if (g) {
      g.count += 1;
      if (!g.seen.has(d.pair)) {
        g.seen.add(d.pair);
        g.pairs.push(d.pair);
      }
    } else
      groups.set(key, {
        operation: d.operation,
        abstractPath: d.abstractPath,
        kind: d.kind,
        count: 1,
        example: d,
        pairs: [d.pair],
        seen: new Set([d.pair]),
      });
  }
  return [...groups.values()]
    .map(({ seen: _, ...g }) => g)
    .sort(
      (a, b) =>
        b.count - a.count ||
        a.operation.localeCompare(b.operation) ||
        a.abstractPath.localeCompare(b.abstractPath) ||
        a.kind.localeCompare(b.kind),
    );
}
