/**
 * Writes the report files of a run, rebuilds them from a results.json, and verifies a report
 * folder. results.json is the canonical record (sealed with its SHA-256 digest); junit.xml,
 * report.html and requirements-coverage.csv are derived from it and nothing else.
 *
 * Each file is written piece by piece as it is made, and verified the same way: against a target
 * that answers with huge bodies, results.json holds the run's evidence budget (32 MiB by default)
 * and report.html hundreds of 20 KB bodies; never holding them whole as strings keeps the report
 * phase within the run's memory (issue 23).
 */
import { type FileHandle, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { RunEventBus } from '../core/events.ts';
import { integrityOf, sealed, type IntegrityState } from '../core/integrity.ts';
import { STATUSES, type RunResults } from '../core/results.ts';
import { suiteVersion } from '../core/suiteVersion.ts';
import { htmlPieces } from './html/renderHtml.ts';
import { renderJunit } from './junitReport.ts';
import { heldReportFolder } from './reportFolder.ts';
import { renderCoverageCsv } from './traceability.ts';

export const RESULTS_JSON = 'results.json';

export interface ReportPaths {
  resultsJson: string;
  junitXml: string;
  reportHtml: string;
  coverageCsv: string;
}

type DerivedName = 'junit.xml' | 'report.html' | 'requirements-coverage.csv';

/**
 * The files derived from results.json, by file name, in the order they are written, each as its
 * pieces (made as they are read). `integrity` is the results' digest state when the caller has
 * just sealed or checked them (report.html shows it; computed otherwise).
 */
function derivedPieces(results: RunResults, integrity?: IntegrityState): Record<DerivedName, () => Iterable<string>> {
  return {
    'junit.xml': () => [renderJunit(results)],
    'report.html': () => htmlPieces(results, integrity ? { integrity } : {}),
    'requirements-coverage.csv': () => [renderCoverageCsv(results)],
  };
}

/** The files derived from results.json, by file name, in the order they are written. */
export function renderDerived(results: RunResults): Record<DerivedName, string> {
  const pieces = derivedPieces(results);
  const whole = (name: DerivedName) => [...pieces[name]()].join('');
  return {
    'junit.xml': whole('junit.xml'),
    'report.html': whole('report.html'),
    'requirements-coverage.csv': whole('requirements-coverage.csv'),
  };
}

/** Values that `prettyJsonPieces` walks member by member rather than hand to JSON.stringify. */
const isWalked = (v: unknown): v is Record<string, unknown> | unknown[] => {
  if (Array.isArray(v)) return true;
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
};

/** JSON.stringify(value, null, 2) of a value nested `indent` deep (its own lines indented by it). */
function prettyAt(value: unknown, indent: string): string | undefined {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  // A JSON text holds no raw line break but the ones its layout adds.
  return text === undefined || indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/** A member's value as JSON.stringify serialises it: through its toJSON(key), when it has one. */
function jsonValue(key: string, v: unknown): unknown {
  const toJSON = (v as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(v, key) : v;
}

const serialisable = (v: unknown): boolean => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/**
 * The text of `JSON.stringify(value, null, 2)`, piece by piece: plain objects and arrays down to
 * `depth` levels are walked member by member (results.json: the run, then each of its lists), and
 * what lies deeper (one result, one exchange) is stringified one member at a time. Members are left
 * out, or written as `null` in arrays, exactly as JSON.stringify does.
 */
export function* prettyJsonPieces(value: unknown, depth = 2, indent = ''): Generator<string> {
  if (depth <= 0 || !isWalked(value)) {
    const text = prettyAt(value, indent);
    if (text !== undefined) yield text;
    return;
  }
  const inner = `${indent}  `;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = jsonValue(String(i), value[i]);
      yield `${count++ === 0 ? '[' : ','}\n${inner}`;
      if (serialisable(v)) yield* prettyJsonPieces(v, depth - 1, inner);
      else yield 'null';
    }
    yield count === 0 ? '[]' : `\n${indent}]`;
    return;
  }
  for (const key of Object.keys(value)) {
    const v = jsonValue(key, value[key]);
    if (!serialisable(v)) continue;
    yield `${count++ === 0 ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    yield* prettyJsonPieces(v, depth - 1, inner);
  }
  yield count === 0 ? '{}' : `\n${indent}}`;
}

/** results.json's text piece by piece: JSON.stringify(results, null, 2) and a final line break. */
export function* resultsJsonPieces(results: RunResults): Generator<string> {
  yield* prettyJsonPieces(results);
  yield '\n';
}

/** Pieces are gathered into chunks of about this many characters before they are written or compared. */
const CHUNK = 256 * 1024;

/** The pieces as UTF-8 chunks of about CHUNK characters. */
function* chunks(pieces: Iterable<string>): Generator<Buffer> {
  let buffered: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    buffered.push(piece);
    length += piece.length;
    if (length >= CHUNK) {
      yield Buffer.from(buffered.join(''), 'utf8');
      buffered = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.from(buffered.join(''), 'utf8');
}

/** Writes a file's pieces as they are made. */
async function writePieces(file: string, pieces: Iterable<string>): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (const chunk of chunks(pieces)) {
      for (let at = 0; at < chunk.length; ) at += (await handle.write(chunk, at, chunk.length - at)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

/** Reads `into.length` bytes at `position` (fewer only at the end of the file); how many were read. */
async function readAt(handle: FileHandle, into: Buffer, position: number): Promise<number> {
  let got = 0;
  while (got < into.length) {
    const { bytesRead } = await handle.read(into, got, into.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

/**
 * Whether a file holds exactly the pieces' bytes, compared chunk by chunk as the pieces are made;
 * undefined when it cannot be read (a folder opens, but reading it fails). Without pieces: true
 * when it can be read. A rendering bug is thrown, never taken for an unreadable file.
 */
async function holdsPieces(file: string, pieces?: Iterable<string>): Promise<boolean | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  const read = (into: Buffer, position: number): Promise<number> => readAt(handle, into, position).catch(() => -1);
  try {
    const probe = Buffer.alloc(1);
    if ((await read(probe, 0)) < 0) return undefined;
    if (pieces === undefined) return true;
    let position = 0;
    for (const chunk of chunks(pieces)) {
      const held = Buffer.allocUnsafe(chunk.length);
      const got = await read(held, position);
      if (got < 0) return undefined;
      if (got !== chunk.length || !held.equals(chunk)) return false;
      position += chunk.length;
    }
    const after = await read(probe, position);
    return after < 0 ? undefined : after === 0;
  } finally {
    await handle.close();
  }
}

/** The paths of the report files in a report folder. */
export const reportPathsIn = (root: string): ReportPaths => ({
  resultsJson: resolve(root, RESULTS_JSON),
  junitXml: resolve(root, 'junit.xml'),
  reportHtml: resolve(root, 'report.html'),
  coverageCsv: resolve(root, 'requirements-coverage.csv'),
});

/**
 * Writes the files into `dir`, each under a temporary name, and renames them all once every one is
 * written, so that a rendering bug leaves no half-written set (results.json last: the digest
 * arrives with, or after, the files it seals). The temporary names are those of a staging folder:
 * a process that ended before renaming leaves what the next claim of the folder removes
 * (reports/reportFolder.ts).
 */
async function writeAll(
  results: RunResults,
  dir: string,
  artefacts: 'all' | 'results' = 'all',
  integrity?: IntegrityState,
): Promise<ReportPaths> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const files: [string, () => Iterable<string>][] = [
    ...(artefacts === 'all' ? Object.entries(derivedPieces(results, integrity)) : []),
    [RESULTS_JSON, () => resultsJsonPieces(results)],
  ];
  const temporary = (name: string) => join(root, `.conformance-staging-${process.pid}-${name}`);
  try {
    for (const [name, pieces] of files) await writePieces(temporary(name), pieces());
    for (const [name] of files) await rename(temporary(name), join(root, name));
  } catch (e) {
    await Promise.all(files.map(([name]) => rm(temporary(name), { force: true })));
    throw e;
  }
  return reportPathsIn(root);
}

/**
 * Seals the results of a run (SHA-256 of their canonical content) and writes results.json,
 * junit.xml, report.html and requirements-coverage.csv into `dir` (created if needed). When this
 * process has claimed `dir` for a run (reports/reportFolder.ts), they are written into the claim's
 * staging folder and moved into place with what the run staged there (allure-results); once that
 * claim is committed and kept, in place.
 */
export async function writeReports(
  results: RunResults,
  dir: string,
  artefacts: 'all' | 'results' = 'all',
): Promise<ReportPaths> {
  const claim = heldReportFolder(dir);
  const seal = sealed(results);
  // Just sealed: the page states the digest without walking the results once more.
  const integrity: IntegrityState = { state: 'intact', digest: seal.integrity?.digest ?? '' };
  // Not claimed, or claimed and committed already and kept (`conformance compare` adding its
  // comparison to the candidate's report): written in place, the folder still locked by its claim.
  if (!claim || claim.committed) return writeAll(seal, dir, artefacts, integrity);
  await writeAll(seal, claim.staging, artefacts, integrity);
  claim.commit();
  return reportPathsIn(claim.dir);
}

/**
 * The report folder as a subscriber of the run's events: written when the run finishes. The
 * returned function gives the paths written (undefined before).
 */
export function subscribeReportFolder(
  bus: RunEventBus,
  dir: string,
  artefacts: 'all' | 'results' = 'all',
): () => ReportPaths | undefined {
  let written: ReportPaths | undefined;
  bus.on('run-finished', async ({ results }) => {
    written = await writeReports(results, dir, artefacts);
  });
  return () => written;
}

export interface Rebuilt {
  paths: ReportPaths;
  integrity: IntegrityState;
}

/**
 * Rebuilds the derived files from a results.json, offline, into `outDir` (default: the results
 * file's folder). The results are never re-sealed: an altered file keeps its mismatching digest,
 * and the rebuilt report says so.
 */
export async function rebuildReports(resultsFile: string, outDir?: string): Promise<Rebuilt> {
  const results = await readResults(resultsFile);
  const root = resolve(outDir ?? dirname(resolve(resultsFile)));
  const integrity = integrityOf(results);
  const paths = await writeAll(results, root, 'all', integrity);
  return { paths, integrity };
}

export type FileState = 'matches' | 'altered' | 'missing' | 'not-comparable';

export interface Verification {
  dir: string;
  integrity: IntegrityState;
  files: { name: string; state: FileState }[];
  /**
   * Whether results.json's bytes are exactly what the run writes for its content. The digest is
   * over the parsed content, so this is what makes it cover the text: a member given twice (a
   * reader that keeps the first would see another value) or a number beyond range (`1e999`, read
   * as Infinity and digested as null) changes the bytes and is an alteration.
   */
  resultsExact: boolean;
  /** True when the digest holds, results.json's text is exact, and every derived file matches. */
  intact: boolean;
  suiteVersion: string;
}

/**
 * Recomputes results.json's digest and re-derives the other files from it. A derived file can be
 * compared only with the suite version that wrote it (a later renderer may lay out the page
 * differently); with another version those files are `not-comparable` and only the digest counts.
 */
export async function verifyReportDir(dir: string): Promise<Verification> {
  const root = resolve(dir);
  const results = await readResults(join(root, RESULTS_JSON));
  const integrity = integrityOf(results);
  const own = suiteVersion();
  const comparable = results.suite.name === own.name && results.suite.version === own.version;
  const files: Verification['files'] = [];
  // Each file is compared byte for byte with the pieces of its rebuilt text as they are made.
  for (const [name, pieces] of Object.entries(derivedPieces(results, integrity))) {
    const held = await holdsPieces(join(root, name), comparable ? pieces() : undefined);
    const state: FileState =
      held === undefined ? 'missing' : !comparable ? 'not-comparable' : held ? 'matches' : 'altered';
    files.push({ name: basename(name), state });
  }
  const resultsExact = (await holdsPieces(join(root, RESULTS_JSON), resultsJsonPieces(results))) === true;
  const intact =
    integrity.state === 'intact' &&
    resultsExact &&
    files.every((f) => f.state === 'matches' || f.state === 'not-comparable');
  return { dir: root, integrity, files, resultsExact, intact, suiteVersion: `${own.name} ${own.version}` };
}

const VERDICTS = new Set(['conformant', 'not-conformant', 'inconclusive']);
const LEVELS = new Set(['MUST', 'SHOULD', 'INFO']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first reason `value` is not a `RunResults`, or undefined when it looks like one. */
export function resultsProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'expected a JSON object';
  const suite = value.suite;
  if (!isObject(suite) || typeof suite.name !== 'string' || typeof suite.version !== 'string') {
    return 'expected "suite" with a name and a version';
  }
  for (const key of ['target', 'configDigest', 'startedAt', 'finishedAt'] as const) {
    if (typeof value[key] !== 'string') return `expected "${key}" to be a string`;
  }
  for (const key of ['seed', 'runs'] as const) {
    if (typeof value[key] !== 'number') return `expected "${key}" to be a number`;
  }
  if (typeof value.verdict !== 'string' || !VERDICTS.has(value.verdict)) {
    return `expected "verdict" to be one of ${[...VERDICTS].join(', ')}`;
  }
  if (
    !isObject(value.summary) ||
    !STATUSES.every((s) => typeof (value.summary as Record<string, unknown>)[s] === 'number')
  ) {
    return 'expected "summary" with a count per status';
  }
  if (!isObject(value.attestation)) return 'expected "attestation" to be an object';
  for (const [k, v] of Object.entries(value.attestation))
    if (typeof v !== 'string') return `expected "attestation.${k}" to be a string`;
  if (value.evidence !== 'masked' && value.evidence !== 'full') return 'expected "evidence" to be masked or full';
  for (const key of ['operations', 'results', 'exchanges', 'requirements', 'appliedDecisions', 'decisions'] as const) {
    if (!Array.isArray(value[key])) return `expected "${key}" to be an array`;
  }
  const exchanges = value.exchanges as unknown[];
  for (const [i, r] of (value.results as unknown[]).entries()) {
    if (
      !isObject(r) ||
      typeof r.check !== 'string' ||
      typeof r.operation !== 'string' ||
      typeof r.message !== 'string' ||
      !Array.isArray(r.requirements) ||
      typeof r.status !== 'string' ||
      !(STATUSES as readonly string[]).includes(r.status) ||
      typeof r.level !== 'string' ||
      !LEVELS.has(r.level)
    ) {
      return `results[${i}] is not a check result`;
    }
    if (r.exchange !== undefined && (typeof r.exchange !== 'number' || !isObject(exchanges[r.exchange]))) {
      return `results[${i}] refers to a missing exchange`;
    }
  }
  for (const [i, x] of exchanges.entries()) {
    if (!isObject(x) || typeof x.method !== 'string' || typeof x.url !== 'string' || !isObject(x.request)) {
      return `exchanges[${i}] is not an exchange record`;
    }
  }
  for (const [i, o] of (value.operations as unknown[]).entries()) {
    if (!isObject(o) || typeof o.id !== 'string' || !isObject(o.counts))
      return `operations[${i}] is not an operation summary`;
  }
  for (const [i, r] of (value.requirements as unknown[]).entries()) {
    if (
      !isObject(r) ||
      typeof r.id !== 'string' ||
      typeof r.text !== 'string' ||
      !Array.isArray(r.operations) ||
      typeof r.notTestedReason !== 'string'
    ) {
      return `requirements[${i}] is not a requirement row`;
    }
  }
  if (value.integrity !== undefined && (!isObject(value.integrity) || typeof value.integrity.digest !== 'string')) {
    return 'expected "integrity" with a digest';
  }
  return undefined;
}

const oneLine = (s: string): string => s.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** Reads and minimally validates a results.json; throws an Error with a one-line message otherwise. */
export async function readResults(file: string): Promise<RunResults> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new Error(oneLine(`Cannot read results file ${file}: ${(e as Error).message}`));
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (e) {
    throw new Error(oneLine(`${file} is not a results file: invalid JSON (${(e as Error).message})`));
  }
  const problem = resultsProblem(value);
  if (problem !== undefined) throw new Error(oneLine(`${file} is not a results file: ${problem}`));
  return value as RunResults;
}
