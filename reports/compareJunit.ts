/**
 * compare.junit.xml, rebuilt from a `Comparison` (reports/compareModel.ts): one <testsuite> for
 * the comparison, one <testcase> per group of differences (classname the operation, name the kind
 * and path). A group that fails the comparison under `--fail-on` is a <failure> (every group with
 * `any`; a group that breaks a documented row with `documented`); another group passes and says
 * what it is in <system-out>, so CI shows it without failing the build. A comparison without
 * differences has one passing test case saying so (a suite of no tests reads as broken in CI).
 */
import type { Comparison, DifferenceGroupRecord } from './compareModel.ts';
import { xmlAttr, xmlText } from './junitReport.ts';

const show = (v: unknown): string => {
  if (v === undefined) return '(absent)';
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
};

/** The one line a group is named by (the console and the page say the same). */
export function groupLine(g: DifferenceGroupRecord): string {
  const rule =
    g.breaks.length > 0
      ? `breaks ${[...new Set(g.breaks.map((b) => b.requirement))].join(', ')}`
      : 'no documented rule';
  return `${g.operation} ${g.path || '(body)'} ${g.kind} ×${g.count}: ${rule}`;
}

/** Plain-text account of a group: the example pair, where it was made, and how to send it again. */
export function describeGroup(g: DifferenceGroupRecord): string {
  const e = g.example;
  const lines = [
    groupLine(g),
    `Example (pair ${e.pair}, ${e.place.suite} > ${e.place.test} #${e.place.ordinal}): ${e.path || '(body)'}: reference ${show(e.reference)}, candidate ${show(e.candidate)}`,
  ];
  for (const b of g.breaks) lines.push(`Breaks ${b.requirement} (${b.level}): ${b.check}: ${b.message}`);
  if (e.curl.reference) lines.push(`Reference request:\n${e.curl.reference}`);
  if (e.curl.candidate) lines.push(`Candidate request:\n${e.curl.candidate}`);
  lines.push(`Replay: ${g.replay}`);
  return lines.join('\n');
}

export const failsComparison = (c: Pick<Comparison, 'failOn'>, g: DifferenceGroupRecord): boolean =>
  c.failOn === 'any' || g.breaks.length > 0;

export function renderCompareJunit(c: Comparison): string {
  const seconds = ((Date.parse(c.finishedAt) - Date.parse(c.startedAt)) / 1000 || 0).toFixed(3);
  const failing = c.groups.filter((g) => failsComparison(c, g)).length;
  const cases = c.groups.map((g) => {
    const open = `    <testcase classname="${xmlAttr(g.operation)}" name="${xmlAttr(`${g.id} ${g.kind} ${g.path || '(body)'}`)}" time="0.000"`;
    const text = describeGroup(g);
    return failsComparison(c, g)
      ? `${open}>\n      <failure message="${xmlAttr(groupLine(g))}" type="${g.breaks.length > 0 ? 'documented' : 'difference'}">${xmlText(text)}</failure>\n    </testcase>`
      : `${open}>\n      <system-out>${xmlText(text)}</system-out>\n    </testcase>`;
  });
  if (cases.length === 0)
    cases.push(
      `    <testcase classname="compare" name="no differences beyond noise (${c.summary.pairs} pairs of answers)" time="0.000"/>`,
    );
  const [candidate, reference] = [
    c.targets.find((t) => t.role === 'candidate'),
    c.targets.find((t) => t.role === 'reference'),
  ];
  const props = [
    ['candidate', candidate?.url ?? ''],
    ['reference', reference?.url ?? ''],
    ['seed', String(c.seed)],
    ['fail-on', c.failOn],
    ['noise', c.noiseFrom],
  ].map(([n, v]) => `      <property name="${xmlAttr(n as string)}" value="${xmlAttr(v as string)}"/>`);
  const counts = `tests="${cases.length}" failures="${failing}" errors="0" skipped="0" time="${seconds}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`${c.suite.name} ${c.suite.version} compare`)}" ${counts} timestamp="${xmlAttr(c.startedAt)}">`,
    `  <testsuite name="compare" ${counts} timestamp="${xmlAttr(c.startedAt)}">`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
