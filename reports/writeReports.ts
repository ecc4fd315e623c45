/**
 * Writes the report files of a run, rebuilds them from a results.json, and verifies a report
 * folder. results.json is the canonical record (sealed with its SHA-256 digest); junit.xml,
 * report.html and requirements-coverage.csv are derived from it and nothing else.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { RunEventBus } from '../core/events.ts';
import { integrityOf, sealed, type IntegrityState } from '../core/integrity.ts';
import { STATUSES, type RunResults } from '../core/results.ts';
import { suiteVersion } from '../core/suiteVersion.ts';
import { renderHtml } from './html/renderHtml.ts';
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

/** The files derived from results.json, by file name, in the order they are written. */
export function renderDerived(
  results: RunResults,
): Record<'junit.xml' | 'report.html' | 'requirements-coverage.csv', string> {
  return {
    'junit.xml': renderJunit(results),
    'report.html': renderHtml(results),
    'requirements-coverage.csv': renderCoverageCsv(results),
  };
}

/** The paths of the report files in a report folder. */
export const reportPathsIn = (root: string): ReportPaths => ({
  resultsJson: resolve(root, RESULTS_JSON),
  junitXml: resolve(root, 'junit.xml'),
  reportHtml: resolve(root, 'report.html'),
  coverageCsv: resolve(root, 'requirements-coverage.csv'),
});

async function writeAll(results: RunResults, dir: string, artefacts: 'all' | 'results' = 'all'): Promise<ReportPaths> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  // Render everything before writing anything, so a rendering bug leaves no half-written set.
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const derived: Record<string, string> = artefacts === 'all' ? renderDerived(results) : {};
  await writeFile(join(root, RESULTS_JSON), json, 'utf8');
  for (const [name, text] of Object.entries(derived)) await writeFile(join(root, name), text, 'utf8');
  return reportPathsIn(root);
}

/**
 * Seals the results of a run (SHA-256 of their canonical content) and writes results.json,
 * junit.xml, report.html and requirements-coverage.csv into `dir` (created if needed). When this
 * process has claimed `dir` for a run (reports/reportFolder.ts), they are written into the claim's
 * staging folder and moved into place with what the run staged there (allure-results).
 */
export async function writeReports(
  results: RunResults,
  dir: string,
  artefacts: 'all' | 'results' = 'all',
): Promise<ReportPaths> {
  const claim = heldReportFolder(dir);
  if (!claim) return writeAll(sealed(results), dir, artefacts);
  await writeAll(sealed(results), claim.staging, artefacts);
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
  const paths = await writeAll(results, root);
  return { paths, integrity: integrityOf(results) };
}

export type FileState = 'matches' | 'altered' | 'missing' | 'not-comparable';

export interface Verification {
  dir: string;
  integrity: IntegrityState;
  files: { name: string; state: FileState }[];
  /** True when the digest holds and every derived file matches. */
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
  for (const [name, expected] of Object.entries(renderDerived(results))) {
    let actual: string | undefined;
    try {
      actual = await readFile(join(root, name), 'utf8');
    } catch {
      actual = undefined;
    }
    const state: FileState =
      actual === undefined ? 'missing' : !comparable ? 'not-comparable' : actual === expected ? 'matches' : 'altered';
    files.push({ name: basename(name), state });
  }
  const intact =
    integrity.state === 'intact' && files.every((f) => f.state === 'matches' || f.state === 'not-comparable');
  return { dir: root, integrity, files, intact, suiteVersion: `${own.name} ${own.version}` };
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
