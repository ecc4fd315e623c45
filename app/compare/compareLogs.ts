/**
 * Two runs' exchange logs compared (issue 35): the calls paired step by step (pairExchanges.ts),
 * each pair's answers compared (core/answerDiff.ts) beyond the noise (noise.ts), the differences
 * grouped like findings, and each group linked to the documented rows the candidate's run failed
 * on its exchanges ("breaks D1-2.8-02"), or to none. What is written is masked by the caller's
 * `mask` (the run's evidence mode): the logs keep personal data so that answers compare by what
 * they say, never by what masking left of them.
 */
import {
  type Answer,
  compareAnswers,
  type Difference,
  groupDifferences,
  type PairedDifference,
} from '../../core/answerDiff.ts';
import type { LoggedExchange } from '../../core/exchangeLog.ts';
import type { ExchangeRecord } from '../../core/results.ts';
import {
  type BrokenRow,
  type ComparisonSummary,
  type DifferenceExample,
  type DifferenceGroupRecord,
  type NoiseEntry,
  type OperationComparison,
  placeIn,
} from '../../reports/compareModel.ts';
import { curlCommand } from '../../reports/curl.ts';
import { answerOf, compareOptionsOf, originsOf } from './answers.ts';
import { documentedNoise, learnedNoise, Noise, type NoiseRule, type ReferencePair, valueAt } from './noise.ts';
import { pairExchanges } from './pairExchanges.ts';

export interface LogsToCompare {
  reference: readonly LoggedExchange[];
  candidate: readonly LoggedExchange[];
  /** A second reference's log: the noise is learnt from it (else the documented volatile members). */
  second?: readonly LoggedExchange[];
  /** The documented rows the candidate's run failed, by the id of the exchange each failure judged. */
  failures: ReadonlyMap<string, readonly BrokenRow[]>;
  /** The configs' `compare.ignore`, as rules. */
  configured: readonly NoiseRule[];
  /** An exchange as it may be written (masked by the run's evidence mode). */
  mask: (x: ExchangeRecord) => ExchangeRecord;
  /** A value of an answer as it may be written, when it cannot be read from the masked exchange. */
  maskValue: (v: unknown) => unknown;
  /** The comparison narrowed to one operation, as a command line. */
  replay: (operation: string) => string;
}

export interface ComparedLogs {
  summary: ComparisonSummary;
  operations: OperationComparison[];
  noise: NoiseEntry[];
  groups: DifferenceGroupRecord[];
}

/** One place of the comparison: a pair of calls, or a call one run made alone. */
interface Place {
  reference?: LoggedExchange;
  candidate?: LoggedExchange;
  operation: string;
}

const operationOf = (x: LoggedExchange): string => x.exchange.operation ?? '';

/** What a difference shows of a value: an answer that never came says so. */
function shown(answer: Answer, x: LoggedExchange | undefined, path: string, value: unknown): unknown {
  if (path === 'status' && answer.status === 0) return `no answer: ${x?.exchange.error ?? 'none'}`;
  return value;
}

export function compareLogs(logs: LogsToCompare): ComparedLogs {
  const origins = {
    reference: originsOf(logs.reference),
    candidate: originsOf(logs.candidate),
    second: originsOf(logs.second ?? []),
  };
  const paired = pairExchanges(logs.reference, logs.candidate);

  // The noise: learnt from the second reference, or the documented volatile members; the configs' ignores either way.
  let rules: NoiseRule[];
  if (logs.second) {
    const twice = pairExchanges(logs.reference, logs.second);
    const pairs: ReferencePair[] = twice.pairs.map((p) => ({
      operation: operationOf(p.reference),
      reference: answerOf(p.reference, origins.reference),
      second: answerOf(p.candidate, origins.second),
      options: compareOptionsOf(p.reference),
      // An example is shown as the masked exchange shows it, as a group's example is.
      shown: (side, path, value) => {
        const x = side === 'reference' ? p.reference : p.candidate;
        const read = valueAt(answerOf({ ...x, exchange: logs.mask(x.exchange) }, origins[side]), path);
        return read !== undefined ? read : logs.maskValue(value);
      },
    }));
    rules = learnedNoise(pairs, [...twice.referenceOnly, ...twice.candidateOnly].map(operationOf));
  } else rules = documentedNoise();
  const noise = new Noise([...logs.configured, ...rules]);

  const places: Place[] = [
    ...paired.pairs.map((p) => ({ ...p, operation: operationOf(p.reference) })),
    ...paired.referenceOnly.map((reference) => ({ reference, operation: operationOf(reference) })),
    ...paired.candidateOnly.map((candidate) => ({ candidate, operation: operationOf(candidate) })),
  ];
  const answers = new Map<number, { reference?: Answer; candidate?: Answer }>();
  const differences: PairedDifference[] = [];
  let suppressed = 0;
  places.forEach((place, i) => {
    const { reference: r, candidate: c, operation } = place;
    if (r && c) {
      const [a, b] = [answerOf(r, origins.reference), answerOf(c, origins.candidate)];
      answers.set(i, { reference: a, candidate: b });
      const bodies = [a.body, b.body];
      const options = compareOptionsOf(r);
      // The same text (most pairs): only the status and the headers may differ.
      const [x, y] =
        a.text === b.text
          ? [
              { ...a, body: undefined },
              { ...b, body: undefined },
            ]
          : [a, b];
      for (const d of compareAnswers(x, y, { ...options, ignore: noise.ignoreFor(operation, bodies) }))
        differences.push({ ...d, operation, pair: i });
      for (const d of compareAnswers(x, y, options))
        if (noise.leaveOut(operation, bodies, d.abstractPath)) suppressed++;
      return;
    }
    const alone = (r ?? c) as LoggedExchange;
    // A call of no operation is the harness obtaining a token: a worker obtains one when a suite
    // first needs it, so how many each run makes depends on how the suites were spread over the
    // workers. Counted as unpaired, never a difference.
    if (operation === '') return;
    if (noise.leaveOut(operation, [], 'exchange')) {
      suppressed++;
      return;
    }
    const call = `${alone.exchange.method} ${alone.exchange.url}`;
    differences.push({
      kind: r ? 'exchange-gone' : 'exchange-new',
      path: 'exchange',
      abstractPath: 'exchange',
      operation,
      pair: i,
      ...(r ? { reference: call } : { candidate: call }),
    });
  });

  // The first difference of each group on each of its pairs, to show the pair that breaks a row.
  const firstOnPair = new Map<string, PairedDifference>();
  const groupKey = (d: Pick<Difference, 'abstractPath' | 'kind'> & { operation: string }) =>
    `${d.operation}\u0000${d.abstractPath}\u0000${d.kind}`;
  for (const d of differences) {
    const key = `${groupKey(d)}\u0000${d.pair}`;
    if (!firstOnPair.has(key)) firstOnPair.set(key, d);
  }

  const groups: DifferenceGroupRecord[] = groupDifferences(differences).map((g, n) => {
    const breaks = new Map<string, BrokenRow>();
    let evidencePair: number | undefined;
    for (const pair of g.pairs) {
      const id = places[pair]?.candidate?.id;
      const rows = id === undefined ? undefined : logs.failures.get(id);
      if (!rows?.length) continue;
      evidencePair ??= pair;
      for (const row of rows) {
        const key = `${row.requirement}\u0000${row.check}`;
        if (!breaks.has(key)) breaks.set(key, row);
      }
    }
    const example =
      evidencePair === undefined ? g.example : (firstOnPair.get(`${groupKey(g)}\u0000${evidencePair}`) ?? g.example);
    return {
      id: `d${n + 1}`,
      operation: g.operation,
      path: g.abstractPath,
      kind: g.kind,
      count: g.count,
      pairs: g.pairs.length,
      breaks: [...breaks.values()].sort(
        (a, b) => a.requirement.localeCompare(b.requirement) || a.check.localeCompare(b.check),
      ),
      example: exampleOf(example, places[example.pair] as Place, answers.get(example.pair), logs, origins),
      replay: logs.replay(g.operation),
    };
  });

  const operations = new Map<string, OperationComparison>();
  const at = (operation: string): OperationComparison => {
    let o = operations.get(operation);
    if (!o) {
      o = { operation, pairs: 0, differences: 0, groups: 0, referenceOnly: 0, candidateOnly: 0 };
      operations.set(operation, o);
    }
    return o;
  };
  for (const p of places) {
    const o = at(p.operation);
    if (p.reference && p.candidate) o.pairs++;
    else if (p.reference) o.referenceOnly++;
    else o.candidateOnly++;
  }
  for (const d of differences) at(d.operation).differences++;
  for (const g of groups) at(g.operation).groups++;

  return {
    summary: {
      pairs: paired.pairs.length,
      differences: differences.length,
      groups: groups.length,
      breaking: groups.filter((g) => g.breaks.length > 0).length,
      referenceOnly: paired.referenceOnly.length,
      candidateOnly: paired.candidateOnly.length,
      suppressed,
    },
    operations: [...operations.values()].sort((a, b) => a.operation.localeCompare(b.operation)),
    noise: noise.entries(),
    groups,
  };
}

/** A group's example: the difference, where the call was made, both exchanges masked, and their curl commands. */
function exampleOf(
  d: PairedDifference,
  place: Place,
  answers: { reference?: Answer; candidate?: Answer } | undefined,
  logs: LogsToCompare,
  origins: { reference: string[]; candidate: string[] },
): DifferenceExample {
  const reference = place.reference ? logs.mask(place.reference.exchange) : undefined;
  const candidate = place.candidate ? logs.mask(place.candidate.exchange) : undefined;
  const where = (place.reference ?? place.candidate) as LoggedExchange;
  // The values as the masked exchanges show them; read from the masked answers where they parse.
  const shownValue = (side: 'reference' | 'candidate', record: ExchangeRecord | undefined, value: unknown): unknown => {
    const answer = answers?.[side];
    const x = place[side];
    if (d.kind === 'exchange-gone' || d.kind === 'exchange-new')
      return record ? `${record.method} ${record.url}` : undefined;
    if (!answer || !record || !x) return value === undefined ? undefined : logs.maskValue(value);
    // A side that does not hold the member (gone from the candidate, new in it) shows it absent:
    // under an array compared as a set, its place on the other side is another item's.
    const path = placeIn(side, d);
    if (path === undefined) return undefined;
    const masked = answerOf({ ...x, exchange: record }, origins[side]);
    const read = valueAt(masked, path);
    return shown(answer, x, path, read !== undefined || value === undefined ? read : logs.maskValue(value));
  };
  const refValue = shownValue('reference', reference, d.reference);
  const candValue = shownValue('candidate', candidate, d.candidate);
  return {
    pair: d.pair,
    path: d.path,
    ...(d.candidatePath !== undefined ? { candidatePath: d.candidatePath } : {}),
    ...(refValue !== undefined ? { reference: refValue } : {}),
    ...(candValue !== undefined ? { candidate: candValue } : {}),
    place: { suite: where.suite, test: where.test, ordinal: where.ordinal },
    exchanges: { ...(reference ? { reference } : {}), ...(candidate ? { candidate } : {}) },
    curl: {
      ...(reference ? { reference: curlCommand(reference) } : {}),
      ...(candidate ? { candidate: curlCommand(candidate) } : {}),
    },
  };
}
