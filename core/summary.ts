/**
 * The one-screen summary printed at the end of a run.
 */
import { reasonsLabel, shareLabel } from './coverage.ts';
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
}

/** Quotes a command-line word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function formatSummary(results: RunResults, reportPath: string, options: SummaryOptions = {}): string[] {
  const maxProblems = options.maxProblems ?? 10;
  const replayCommand = options.replayCommand ?? `conformance run --target ${shellWord(results.target)}`;
  const lines: string[] = [];
  lines.push(
    `Verdict: ${VERDICT_TEXT[results.verdict]} (${results.verdict})  target ${results.target}  seed ${results.seed}`,
  );
  lines.push(`Results: ${STATUSES.map((s) => `${results.summary[s]} ${s}`).join(', ')}`);
  lines.push('');
  const width = Math.max(...results.operations.map((o) => o.id.length), 9);
  lines.push(`${'operation'.padEnd(width)}  doc  sect   pass fail warn skip omit  err  MUST judged     verdict`);
  const notes: string[] = [];
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
      notes.push(`  ${o.id}: ${parts.join('; ')}`);
    }
  }
  if (results.coverage) {
    const c = results.coverage;
    lines.push('');
    lines.push(
      `Coverage: ${shareLabel(c.overall)} of the testable MUST requirements in scope were judged (minimum ${Math.round(100 * c.minimum)}%)` +
        `${Object.keys(c.overall.leftOut).length > 0 ? `; left out by choice: ${reasonsLabel(c.overall.leftOut)}` : ''}`,
    );
    if (notes.length > 0) {
      lines.push(
        `Requirements not judged, per operation (${notes.length}${notes.length > maxProblems ? `, first ${maxProblems}` : ''}):`,
      );
      lines.push(...notes.slice(0, maxProblems));
    }
  }
  if (results.verdictReason) lines.push(`Inconclusive: ${results.verdictReason}`);
  const problems = results.results.filter((r) => r.level === 'MUST' && (r.status === 'fail' || r.status === 'error'));
  if (problems.length > 0) {
    lines.push('');
    lines.push(
      `MUST failures and errors (${problems.length}${problems.length > maxProblems ? `, first ${maxProblems}` : ''}):`,
    );
    for (const r of problems.slice(0, maxProblems)) {
      lines.push(`  ${r.status.toUpperCase()} ${r.operation} ${r.check} [${r.requirements.join(' ')}]: ${r.message}`);
      if (r.replay)
        lines.push(
          `       replay: ${replayCommand} --seed ${r.replay.seed}${r.replay.path ? ` --path ${shellWord(r.replay.path)}` : ''} --only ${r.operation}`,
        );
    }
  }
  lines.push('');
  if (results.evidence === 'full')
    lines.push('Evidence: FULL (personal data is not masked in the artefacts; do not share them)');
  if (results.integrity) lines.push(`Integrity: SHA-256 ${results.integrity.digest}`);
  lines.push(`Report: ${reportPath}`);
  lines.push('Also: results.json, junit.xml, requirements-coverage.csv beside it');
  return lines;
}
