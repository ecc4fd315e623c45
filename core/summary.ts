/**
 * The one-screen summary printed at the end of a run.
 */
import { commandName } from './commandName.ts';
import { reasonsLabel, shareLabel } from './coverage.ts';
import { type Finding, findingsOf, isBlocking } from './findings.ts';
import type { RunResults } from './results.ts';
import { STATUSES } from './results.ts';

const VERDICT_TEXT = {
  conformant: 'CONFORMANT',
  'not-conformant': 'NOT CONFORMANT',
  inconclusive: 'INCONCLUSIVE',
} as const;

export interface SummaryOptions {
  maxProblems?: number;
  /**
   * The command that reruns this run (target, config and options, without --seed, --path and
   * --only), so that a replay hint is a whole command; `conformance run --target <target>` otherwise.
   */
  replayCommand?: string;
  /** The findings of the run, when already computed (core/findings.ts). */
  findings?: Finding[];
  /** A baseline's mark per finding key (core/baseline.ts): shown before each finding. */
  baseline?: ReadonlyMap<string, string>;
}

/** One finding: what failed and how often, an example, what to change, and how to replay it. */
function findingLines(results: RunResults, f: Finding, n: number, replayCommand: string, mark?: string): string[] {
  const example = results.results[f.example];
  const times = f.results.length === 1 ? 'once' : `×${f.results.length}`;
  const ops =
    f.operations.length === 1 ? f.operations[0] : `${f.operations.length} operations (${f.operations.join(', ')})`;
  const lines = [
    `  ${n}. ${mark ? `[${mark}] ` : ''}${f.status.toUpperCase()} ${f.check} ${times} on ${ops} [${f.requirements.length > 8 ? `${f.requirements.slice(0, 8).join(' ')} and ${f.requirements.length - 8} more` : f.requirements.join(' ')}]`,
  ];
  if (example) {
    lines.push(`     ${example.operation}: ${example.message}`);
    lines.push(`     what to change: ${f.change}`);
    if (example.replay)
      lines.push(
        `     replay: ${replayCommand} --seed ${example.replay.seed}${example.replay.path ? ` --path ${shellWord(example.replay.path)}` : ''} --only ${example.operation}`,
      );
  }
  return lines;
}

/** Quotes a command-line word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function formatSummary(results: RunResults, reportPath: string, options: SummaryOptions = {}): string[] {
  const maxProblems = options.maxProblems ?? 10;
  const replayCommand = options.replayCommand ?? `${commandName()} run --target ${shellWord(results.target)}`;
  const lines: string[] = [];
  lines.push(
    `Verdict: ${VERDICT_TEXT[results.verdict]} (${results.verdict})  target ${results.target}  seed ${results.seed}`,
  );
  lines.push(`Results: ${STATUSES.map((s) => `${results.summary[s]} ${s}`).join(', ')}`);
  lines.push('');
  const width = Math.max(...results.operations.map((o) => o.id.length), 9);
  lines.push(`${'operation'.padEnd(width)}  doc  sect   pass fail warn skip omit  err  MUST judged     verdict`);
  // Operations with requirements not judged (they count against coverage) come before those whose
  // requirements were only left out by choice (issue 24: what is not judged, ordered by its cost).
  const notes: string[] = [];
  const choices: string[] = [];
  for (const o of results.operations) {
    const c = o.counts;
    const n = (v: number) => String(v).padStart(4);
    const cov = results.coverage?.operations[o.id];
    const judged = cov ? (cov.inScope === 0 && Object.keys(cov.leftOut).length > 0 ? 'left out' : shareLabel(cov)) : '';
    lines.push(
      `${o.id.padEnd(width)}  ${o.document}   ${o.section.padEnd(5)} ${n(c.pass)} ${n(c.fail)} ${n(c.warn)} ${n(c.skip)} ${n(c.omit)} ${n(c.error)}  ${judged.padEnd(14)}  ${o.verdict}`,
    );
    if (cov && (Object.keys(cov.notJudged).length > 0 || Object.keys(cov.leftOut).length > 0)) {
      const parts = [
        Object.keys(cov.notJudged).length > 0 ? `not judged: ${reasonsLabel(cov.notJudged)}` : '',
        Object.keys(cov.leftOut).length > 0 ? `left out: ${reasonsLabel(cov.leftOut)}` : '',
      ].filter(Boolean);
      (Object.keys(cov.notJudged).length > 0 ? notes : choices).push(`  ${o.id}: ${parts.join('; ')}`);
    }
  }
  if (results.coverage) {
    const c = results.coverage;
    lines.push('');
    lines.push(
      `Coverage: ${shareLabel(c.overall)} of the testable MUST requirements in scope were judged (minimum ${Math.round(100 * c.minimum)}%)` +
        `${Object.keys(c.overall.leftOut).length > 0 ? `; left out by choice: ${reasonsLabel(c.overall.leftOut)}` : ''}`,
    );
    const listed = [...notes, ...choices];
    if (listed.length > 0) {
      lines.push(
        `Requirements not judged, per operation, those counting against coverage first (${listed.length}${listed.length > maxProblems ? `, first ${maxProblems}` : ''}):`,
      );
      lines.push(...listed.slice(0, maxProblems));
    }
  }
  if (results.verdictReason) lines.push(`Inconclusive: ${results.verdictReason}`);
  const findings = options.findings ?? findingsOf(results);
  const blocking = findings.filter(isBlocking);
  if (blocking.length > 0) {
    const count = blocking.reduce((n, f) => n + f.results.length, 0);
    lines.push('');
    lines.push(
      `MUST findings: ${blocking.length} ${blocking.length === 1 ? 'cause' : 'causes'} of ${count} ${count === 1 ? 'failure or error' : 'failures and errors'}${blocking.length > maxProblems ? `, first ${maxProblems}` : ''}:`,
    );
    blocking.slice(0, maxProblems).forEach((f, i) => {
      lines.push(...findingLines(results, f, i + 1, replayCommand, options.baseline?.get(f.key)));
    });
  }
  const lesser = findings.length - blocking.length;
  if (lesser > 0)
    lines.push(
      '',
      `Also ${lesser} SHOULD or INFO ${lesser === 1 ? 'finding' : 'findings'} (warnings), listed in the report.`,
    );
  lines.push('');
  if (results.evidence === 'full')
    lines.push('Evidence: FULL (personal data is not masked in the artefacts; do not share them)');
  if (results.integrity) lines.push(`Integrity: SHA-256 ${results.integrity.digest}`);
  lines.push(`Report: ${reportPath}`);
  lines.push('Also: results.json, junit.xml, requirements-coverage.csv beside it');
  return lines;
}
