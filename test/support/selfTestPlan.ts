/**
 * What the self-test runs and how it reads a run, shared by the fault and variant self-tests
 * (test/faults.test.ts, test/variants.test.ts) and the soak (scripts/soak.ts), so that the soak's
 * table means exactly what the self-test asserts.
 */
import type { RunResults } from '../../core/results.ts';
import { FAULTS, type FaultInfo } from '../../server/faults/catalog.ts';
import { VARIANTS, variantOperations, type VariantInfo } from '../../server/variants/catalog.ts';
import { operations } from '../../spec/operations.ts';
import { batchFaults, type FaultBatch, suiteGroups } from './faultBatches.ts';
import { stricterThanCited } from './levels.ts';

export type Batchable = VariantInfo & { operations: string[] };

/**
 * Variants that change independent parts of every answer, composed in one run: the members of
 * JSON objects (one added), their order, the text's white space and string escapes; the media
 * type's letter case; further header fields; a refusal for load now and then, waited out and
 * sent again. None of them changes what another reads: the suite reads a body as JSON whatever
 * its media type (only the media-type checks read Content-Type), and the body variants leave the
 * parsed value as it was (extra-members adds one member the documents allow). So whatever fails
 * under one of them alone still fails with the whole group on, and one run judges each as a run
 * of its own would: one full run instead of one per variant (each of these concerns every
 * operation, so none shares a batch otherwise).
 *
 * The order is the order the sandbox applies them in, and matters: a variant that writes the JSON
 * text anew (extra-members, json-members-reversed) would undo the white space of
 * json-pretty-printed and the escapes of json-unicode-escaped applied before it, and
 * load-shed-429's refusal is left as it is by coming last. test/variantProbes.test.ts proves that
 * each still changes what the sandbox answers with the rest of its group on.
 *
 * media-type-without-charset runs alone for now: the sandbox's transport (fastify) writes a JSON
 * media type that has no charset anew, in lower case with `; charset=utf-8`, which would undo
 * media-type-upper-case (and, alone, leaves the variant without effect).
 */
export const COMPOSING: readonly (readonly string[])[] = [
  [
    'extra-members',
    'json-members-reversed',
    'json-pretty-printed',
    'json-unicode-escaped',
    'media-type-without-charset',
    'media-type-upper-case',
    'cache-and-trace-headers',
    'load-shed-429',
  ],
];

/** The variant batches: the composing groups, then the rest batched like faults. */
export function variantBatches(): FaultBatch<Batchable>[] {
  const batchable: Batchable[] = VARIANTS.map((v) => ({ ...v, operations: variantOperations(v) }));
  const composed = new Set(COMPOSING.flat());
  return [
    ...COMPOSING.map((names) => names.map((n) => batchable.find((v) => v.name === n) as Batchable)),
    ...batchFaults(
      batchable.filter((v) => !composed.has(v.name)),
      suiteGroups(),
    ).map((b) => b.faults),
  ].map((faults, i) => ({
    index: i + 1,
    faults,
    operations: [...new Set(faults.flatMap((f) => f.operations))],
    groups: new Set<string>(),
  }));
}

/** A variant batch that concerns every operation runs unrestricted; another, with --only its operations. */
export function variantBatchOnly(batch: FaultBatch<Batchable>): string[] | undefined {
  return batch.faults.some((v) => v.operations.length === operations.length) ? undefined : batch.operations;
}

export const faultBatches = (): FaultBatch<FaultInfo>[] => batchFaults(FAULTS, suiteGroups());

/**
 * Why a run under variants is not the conformant run fairness demands (empty when it is): a MUST
 * failure or error, a verdict other than conformant, or a result stricter than the row it cites.
 */
export function falseAlarms(results: RunResults, code: number, stderr = ''): string[] {
  const bad = results.results
    .filter((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'))
    .map((r) => `${r.operation} ${r.check}: ${r.message}`);
  if (/internal error/.test(stderr)) bad.push(stderr.split('\n')[0]);
  if (bad.length === 0 && results.verdict !== 'conformant') bad.push(`verdict ${results.verdict}`);
  if (bad.length === 0 && code !== 0) bad.push(`exit ${code}`);
  return [...bad, ...stricterThanCited(results)];
}

/** The results that credit a fault: its check failing (MUST) or warning (SHOULD) on its operations. */
export function creditsOf(results: RunResults, fault: FaultInfo): RunResults['results'] {
  const level = fault.expectedLevel ?? 'MUST';
  return results.results.filter(
    (r) =>
      r.level === level &&
      r.status === (level === 'MUST' ? 'fail' : 'warn') &&
      r.check === fault.expectedCheck &&
      fault.operations.includes(r.operation),
  );
}

/** The replay of a self-test run from the command line. */
export function replayCommand(
  switches: { faults?: readonly string[]; variants?: readonly string[] },
  seed: number,
  runs: number,
  only?: readonly string[],
): string {
  const flags = [
    ...(switches.faults ?? []).map((f) => `--fault ${f}`),
    ...(switches.variants ?? []).map((v) => `--variant ${v}`),
  ].join(' ');
  return `npx conformance start ${flags} --seed ${seed} --runs ${runs} --allow-destructive${only ? ` --only ${only.join(',')}` : ''}`;
}
