/**
 * junit.xml for CI, rebuilt from `RunResults`: one <testsuite> per operation, one <testcase> per
 * (operation, check) pair aggregating that pair's results.
 *
 * A MUST `fail` is a <failure>; an `error` (the suite could not judge) is an <error>; a case whose
 * results are all `skip`/`omit` is <skipped>; `warn` (and a SHOULD/INFO `fail`) stays a pass and
 * is written to <system-out> so CI shows it without failing the build.
 */
import type { CheckResult, RunResults } from '../core/results.ts';
import { curlCommand, maskedUrl } from './curl.ts';
import { operationRows, type OperationRow } from './operationRows.ts';

/** Characters outside XML 1.0's Char production (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripInvalidXmlChars(value: string): string {
  return value.replace(INVALID_XML_CHARS, '');
}

/** Escapes character data (element content). */
export function xmlText(value: string): string {
  return stripInvalidXmlChars(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value; tab, LF and CR become references so attribute normalisation keeps them. */
export function xmlAttr(value: string): string {
  return xmlText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

type CaseOutcome = 'passed' | 'failure' | 'error' | 'skipped';

interface TestCase {
  operation: string;
  check: string;
  results: CheckResult[];
  /** Seconds. */
  time: number;
  outcome: CaseOutcome;
}

const isMustFail = (r: CheckResult): boolean => r.status === 'fail' && r.level === 'MUST';

function outcomeOf(results: readonly CheckResult[]): CaseOutcome {
  if (results.some(isMustFail)) return 'failure';
  if (results.some((r) => r.status === 'error')) return 'error';
  if (results.length > 0 && results.every((r) => r.status === 'skip' || r.status === 'omit')) return 'skipped';
  return 'passed';
}

/** Sum of the durations of the distinct exchanges the results reference, in seconds. */
export function exchangeSeconds(run: RunResults, results: readonly CheckResult[]): number {
  const indexes = new Set<number>();
  for (const r of results) if (r.exchange !== undefined) indexes.add(r.exchange);
  let ms = 0;
  for (const i of indexes) ms += run.exchanges[i]?.duration ?? 0;
  return ms / 1000;
}

function testCases(run: RunResults, operation: string): TestCase[] {
  const byCheck = new Map<string, CheckResult[]>();
  for (const r of run.results) {
    if (r.operation !== operation) continue;
    const list = byCheck.get(r.check) ?? [];
    list.push(r);
    byCheck.set(r.check, list);
  }
  return [...byCheck].map(([check, results]) => ({
    operation,
    check,
    results,
    time: exchangeSeconds(run, results),
    outcome: outcomeOf(results),
  }));
}

const seconds = (s: number): string => s.toFixed(3);

function showValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Plain-text account of one result: what failed, why, and how to replay it. */
export function describeResult(run: RunResults, r: CheckResult): string {
  const lines = [
    `[${r.level}] ${r.status} ${r.check}: ${r.summary}`,
    `Requirements: ${r.requirements.length > 0 ? r.requirements.join(', ') : '(none)'}`,
    `Message: ${r.message}`,
  ];
  if (r.test !== undefined) lines.push(`Test: ${r.test}`);
  if (r.replay !== undefined) {
    let replay = `Replay: --seed ${r.replay.seed}`;
    if (r.replay.path !== undefined) replay += ` --path ${r.replay.path}`;
    if (r.replay.counterexample !== undefined) replay += ` (counterexample ${showValue(r.replay.counterexample)})`;
    lines.push(replay);
  }
  const x = r.exchange === undefined ? undefined : run.exchanges[r.exchange];
  if (x !== undefined) {
    const answer =
      x.status !== undefined ? `HTTP ${x.status}` : `no response${x.error !== undefined ? ` (${x.error})` : ''}`;
    lines.push(`Exchange: ${x.method} ${maskedUrl(x.url)} -> ${answer} in ${x.duration} ms`, curlCommand(x));
  }
  return lines.join('\n');
}

/** One line per result, for <system-out>. */
function noteLine(r: CheckResult): string {
  const req = r.requirements.length > 0 ? ` (${r.requirements.join(', ')})` : '';
  return `[${r.level}] ${r.status}${req}: ${r.message}`;
}

function countedMessage(list: readonly CheckResult[], noun: string): string {
  const first = list[0]?.message ?? '';
  return list.length > 1 ? `${list.length} ${noun}; first: ${first}` : first;
}

function renderCase(run: RunResults, c: TestCase): string {
  const open = `    <testcase classname="${xmlAttr(c.operation)}" name="${xmlAttr(c.check)}" time="${seconds(c.time)}"`;
  const body: string[] = [];
  let described: readonly CheckResult[] = [];
  if (c.outcome === 'failure') {
    const failures = c.results.filter(isMustFail);
    described = failures;
    const text = failures.map((r) => describeResult(run, r)).join('\n\n');
    body.push(
      `      <failure message="${xmlAttr(countedMessage(failures, 'MUST failures'))}" type="MUST">${xmlText(text)}</failure>`,
    );
  } else if (c.outcome === 'error') {
    const errors = c.results.filter((r) => r.status === 'error');
    described = errors;
    const text = errors.map((r) => describeResult(run, r)).join('\n\n');
    body.push(
      `      <error message="${xmlAttr(countedMessage(errors, 'errors'))}" type="error">${xmlText(text)}</error>`,
    );
  } else if (c.outcome === 'skipped') {
    described = c.results;
    const reasons = [...new Set(c.results.map((r) => `${r.status}: ${r.message}`))].join('; ');
    body.push(`      <skipped message="${xmlAttr(reasons)}"/>`);
  }
  const notes = c.results.filter((r) => r.status !== 'pass' && !described.includes(r)).map(noteLine);
  if (notes.length > 0) body.push(`      <system-out>${xmlText(notes.join('\n'))}</system-out>`);
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

interface SuiteCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: number;
}

function countCases(cases: readonly TestCase[]): SuiteCounts {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.outcome === 'failure').length,
    errors: cases.filter((c) => c.outcome === 'error').length,
    skipped: cases.filter((c) => c.outcome === 'skipped').length,
    time: cases.reduce((s, c) => s + c.time, 0),
  };
}

const countAttrs = (n: SuiteCounts): string =>
  `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${seconds(n.time)}"`;

function property(name: string, value: string): string {
  return `      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`;
}

function renderSuite(run: RunResults, op: OperationRow, cases: readonly TestCase[]): string {
  const props = [
    property('document', op.document),
    property('section', op.section),
    property('summary', op.summary),
    property('verdict', op.verdict),
    property('target', run.target),
    property('seed', String(run.seed)),
  ];
  return [
    `  <testsuite name="${xmlAttr(op.id)}" ${countAttrs(countCases(cases))} timestamp="${xmlAttr(run.startedAt)}">`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...cases.map((c) => renderCase(run, c)),
    '  </testsuite>',
  ].join('\n');
}

export function renderJunit(results: RunResults): string {
  const suites = operationRows(results).map((op) => ({ op, cases: testCases(results, op.id) }));
  const total = countCases(suites.flatMap((s) => s.cases));
  const name = `${results.suite.name} ${results.suite.version}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(name)}" ${countAttrs(total)} timestamp="${xmlAttr(results.startedAt)}">`,
    ...suites.map((s) => renderSuite(results, s.op, s.cases)),
    '</testsuites>',
    '',
  ].join('\n');
}
