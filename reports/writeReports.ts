/**
 * Writes the three report files of a run and reads a results file back.
 * results.json is the canonical record; junit.xml and report.html are rebuilt from it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { STATUSES, type RunResults } from '../core/results.ts';
import { renderHtml } from './htmlReport.ts';
import { renderJunit } from './junitReport.ts';

export interface ReportPaths {
  resultsJson: string;
  junitXml: string;
  reportHtml: string;
}

/** Creates `dir` if needed and writes results.json, junit.xml and report.html; returns absolute paths. */
export async function writeReports(results: RunResults, dir: string): Promise<ReportPaths> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const paths: ReportPaths = {
    resultsJson: resolve(root, 'results.json'),
    junitXml: resolve(root, 'junit.xml'),
    reportHtml: resolve(root, 'report.html'),
  };
  // Render everything before writing anything, so a rendering bug leaves no half-written set.
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const junit = renderJunit(results);
  const html = renderHtml(results);
  await writeFile(paths.resultsJson, json, 'utf8');
  await writeFile(paths.junitXml, junit, 'utf8');
  await writeFile(paths.reportHtml, html, 'utf8');
  return paths;
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
  if (!isObject(value.summary) || !STATUSES.every((s) => typeof (value.summary as Record<string, unknown>)[s] === 'number')) {
    return 'expected "summary" with a count per status';
  }
  for (const key of ['operations', 'results', 'exchanges'] as const) {
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
    if (!isObject(o) || typeof o.id !== 'string' || !isObject(o.counts)) return `operations[${i}] is not an operation summary`;
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
  const results = value as RunResults;
  // Files written before decisions were recorded have none.
  if (!Array.isArray(results.decisions)) results.decisions = [];
  return results;
}
