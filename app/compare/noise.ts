/**
 * What the comparison leaves out, and why (issue 35): noise learnt from two references (the paths
 * where the reference and a second reference answered the same request otherwise, per operation:
 * ids, timestamps, generated tokens), or without a second reference the members the documents
 * make volatile (volatileMembers.ts); and, either way, the config's `compare.ignore`. Each rule
 * says where it comes from and counts the differences it left out, for the report.
 *
 * A rule's path is a JSON pointer with `*` for an array index and `**` for any number of members,
 * or `status`, `header:NAME`, `exchange` (a call made by one run only) or `''` (the whole body); a
 * path under a rule's path is left out with it.
 */
import { type Answer, type CompareOptions, compareAnswers, type Ignore } from '../../core/answerDiff.ts';
import type { CompareIgnore } from '../../core/config.ts';
import type { NoiseEntry, NoiseSource } from '../../reports/compareModel.ts';
import { VOLATILE_MEMBERS } from './volatileMembers.ts';

export interface NoiseRule {
  source: NoiseSource;
  /** An operation id, or `*`. */
  operation: string;
  path: string;
  why: string;
  /** Only where an answer holds this (a Bundle's own id). */
  when?: (body: unknown) => boolean;
  example?: { reference?: unknown; second?: unknown };
}

/** Whether a rule's path (with `*` and `**`) is this abstract path. */
export function pathMatches(pattern: string, path: string): boolean {
  // `**/lastUpdated` is written without its leading slash.
  const written = pattern.startsWith('**') ? `/${pattern}` : pattern;
  if (!written.startsWith('/') || !path.startsWith('/')) return written === path;
  const p = written.split('/').slice(1);
  const s = path.split('/').slice(1);
  const match = (i: number, j: number): boolean => {
    if (i === p.length) return j === s.length;
    if (p[i] === '**') return match(i + 1, j) || (j < s.length && match(i, j + 1));
    return j < s.length && p[i] === s[j] && match(i + 1, j + 1);
  };
  return match(0, 0);
}

/** The path and each path it lies under (`/a/b`, `/a`, `''`); `status`, `header:x` and `exchange` alone. */
function pathAndAncestors(path: string): string[] {
  if (!path.startsWith('/')) return [path];
  const out: string[] = [];
  for (let p = path; ; p = p.slice(0, p.lastIndexOf('/'))) {
    out.push(p);
    if (p === '') return out;
  }
}

export class Noise {
  private readonly suppressed = new Map<NoiseRule, number>();

  constructor(readonly rules: readonly NoiseRule[]) {}

  /** The rules that apply to an answer of this operation, given both answers' bodies. */
  private applying(operation: string, bodies: readonly unknown[]): NoiseRule[] {
    return this.rules.filter(
      (r) => (r.operation === '*' || r.operation === operation) && (!r.when || bodies.some((b) => r.when?.(b))),
    );
  }

  /** Answers of each set of rules applying, by path: a comparison asks of the same paths again and again. */
  private readonly answers = new Map<string, Map<string, boolean>>();

  /** What a comparison of two answers of the operation leaves out. */
  ignoreFor(operation: string, bodies: readonly unknown[]): Ignore {
    const rules = this.applying(operation, bodies);
    const key = rules.map((r) => this.rules.indexOf(r)).join(',');
    let known = this.answers.get(key);
    if (!known) {
      known = new Map();
      this.answers.set(key, known);
    }
    const cache = known;
    return {
      has: (path) => {
        let hit = cache.get(path);
        if (hit === undefined) {
          hit = rules.some((r) => pathMatches(r.path, path));
          cache.set(path, hit);
        }
        return hit;
      },
    };
  }

  /** The rule that leaves this difference out, counted; undefined when none does. */
  leaveOut(operation: string, bodies: readonly unknown[], path: string): NoiseRule | undefined {
    const rules = this.applying(operation, bodies);
    for (const p of pathAndAncestors(path)) {
      const rule = rules.find((r) => pathMatches(r.path, p));
      if (rule) {
        this.suppressed.set(rule, (this.suppressed.get(rule) ?? 0) + 1);
        return rule;
      }
    }
    return undefined;
  }

  /** The rules as the report lists them: by operation, path and source, with what each left out. */
  entries(): NoiseEntry[] {
    return this.rules
      .map((r) => ({
        source: r.source,
        operation: r.operation,
        path: r.path,
        why: r.why,
        suppressed: this.suppressed.get(r) ?? 0,
        ...(r.example ? { example: r.example } : {}),
      }))
      .sort(
        (a, b) =>
          (a.operation === '*' ? -1 : 0) - (b.operation === '*' ? -1 : 0) ||
          a.operation.localeCompare(b.operation) ||
          a.path.localeCompare(b.path) ||
          a.source.localeCompare(b.source) ||
          a.why.localeCompare(b.why),
      );
  }
}

/** The documented volatile members, as rules. */
export function documentedNoise(): NoiseRule[] {
  return VOLATILE_MEMBERS.flatMap((m) =>
    (m.operations ?? ['*']).map((operation) => ({
      source: 'documented' as const,
      operation,
      path: m.path,
      why: `${m.source}: “${m.quote}”: ${m.why}${m.when ? ` (${m.when.description})` : ''}`,
      ...(m.when ? { when: m.when.holds } : {}),
    })),
  );
}

/** The config's `compare.ignore`, as rules (one per operation named). */
export function configuredNoise(ignore: readonly CompareIgnore[], configFile: string): NoiseRule[] {
  return ignore.flatMap((item) =>
    (item.operations ?? ['*']).map((operation) => ({
      source: 'config' as const,
      operation,
      path: item.path,
      why: `${configFile} compare.ignore${item.reason ? `: ${item.reason}` : ''}`,
    })),
  );
}

/** One pair of the two references' answers to the same request, and how they compare. */
export interface ReferencePair {
  operation: string;
  reference: Answer;
  second: Answer;
  options: Omit<CompareOptions, 'ignore'>;
  /** A value of an answer as the report may show it (masked by the run's evidence mode); the value itself by default. */
  shown?: (side: 'reference' | 'second', path: string, value: unknown) => unknown;
}

/** A value at a JSON pointer of an answer (`status`, `header:NAME`, or into the body). */
export function valueAt(answer: Answer, path: string): unknown {
  if (path === 'status') return answer.status;
  if (path.startsWith('header:')) return answer.headers[path.slice('header:'.length)];
  if (path === '') return answer.body;
  let v: unknown = answer.body;
  for (const token of path.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(v)) v = v[Number(key)];
    else if (typeof v === 'object' && v !== null) v = (v as Record<string, unknown>)[key];
    else return undefined;
  }
  return v;
}

/**
 * Noise learnt from the two references: per operation, every path where they answered the same
 * request otherwise, and `exchange` where one of them made a call the other did not.
 */
export function learnedNoise(pairs: readonly ReferencePair[], unpairedOperations: Iterable<string>): NoiseRule[] {
  const rules = new Map<string, NoiseRule & { differed: number }>();
  const pairsOf = new Map<string, number>();
  for (const p of pairs) {
    pairsOf.set(p.operation, (pairsOf.get(p.operation) ?? 0) + 1);
    const seen = new Set<string>();
    for (const d of learnNoiseWithValues(p)) {
      const key = `${p.operation}\u0000${d.abstractPath}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const rule = rules.get(key);
      if (rule) rule.differed += 1;
      else
        rules.set(key, {
          source: 'learned',
          operation: p.operation,
          path: d.abstractPath,
          why: '',
          differed: 1,
          example: {
            ...(d.reference !== undefined ? { reference: d.reference } : {}),
            ...(d.second !== undefined ? { second: d.second } : {}),
          },
        });
    }
  }
  const out: NoiseRule[] = [...rules.values()].map(({ differed, ...r }) => ({
    ...r,
    why: `the two references answered ${differed} of ${pairsOf.get(r.operation) ?? 0} requests otherwise here`,
  }));
  for (const operation of new Set(unpairedOperations))
    out.push({
      source: 'learned',
      operation,
      path: 'exchange',
      why: 'the two references made other calls of this operation (their runs took other paths)',
    });
  return out;
}

/**
 * The paths where two references differ (what learnNoise gives, core/answerDiff.ts), each with the
 * values of its first difference, for the example.
 */
function learnNoiseWithValues(p: ReferencePair): { abstractPath: string; reference?: unknown; second?: unknown }[] {
  const first = new Map<string, { abstractPath: string; reference?: unknown; second?: unknown }>();
  const shown = p.shown ?? ((_side, _path, value) => value);
  for (const d of compareAnswers(p.reference, p.second, p.options))
    if (!first.has(d.abstractPath))
      first.set(d.abstractPath, {
        abstractPath: d.abstractPath,
        reference: d.reference === undefined ? undefined : shown('reference', d.path, d.reference),
        second: d.candidate === undefined ? undefined : shown('second', d.candidatePath ?? d.path, d.candidate),
      });
  return [...first.values()];
}
