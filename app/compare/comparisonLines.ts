/**
 * The console's account of a comparison: what was compared with what, the outcome, the groups of
 * differences (most frequent first, each with the rule it breaks or none), the noise left out, and
 * where the files are. `--quiet` keeps the lines starting `Outcome:` and `Comparison:`.
 */
import type { Comparison } from '../../reports/compareModel.ts';
import type { ComparisonPaths } from '../../reports/compareReport.ts';
import { groupLine } from '../../reports/compareJunit.ts';

/** Groups listed at most; compare.html lists them all. */
const MAX_GROUPS = 15;

const show = (v: unknown): string => {
  const text = v === undefined ? '(absent)' : (JSON.stringify(v) ?? String(v));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

export function comparisonLines(c: Comparison, files: ComparisonPaths): string[] {
  const [candidate, reference, second] = ['candidate', 'reference', 'second'].map((r) =>
    c.targets.find((t) => t.role === r),
  );
  const s = c.summary;
  const lines = [
    `Compared ${candidate?.url} with ${reference?.url}${reference?.sandbox ? ' (sandbox)' : ''}${second ? ` and ${second.url}${second.sandbox ? ' (sandbox)' : ''} for the noise` : ''}; seed ${c.seed}${c.only ? `; --only ${c.only}` : ''}`,
    `Runs: ${c.targets.map((t) => `${t.role} ${t.verdict} (${t.exchanges} calls)`).join(', ')}`,
    `Pairs of answers: ${s.pairs}; differences beyond noise: ${s.differences} in ${s.groups} group(s), ${s.breaking} breaking a documented row; left out as noise: ${s.suppressed} (${c.noiseFrom === 'second' ? 'learnt from the second reference' : 'documented volatile members'}${c.noise.some((n) => n.source === 'config') ? ' and compare.ignore' : ''})`,
  ];
  if (s.referenceOnly + s.candidateOnly > 0)
    lines.push(`Unpaired calls: ${s.referenceOnly} by the reference only, ${s.candidateOnly} by the candidate only`);
  c.groups.slice(0, MAX_GROUPS).forEach((g, i) => {
    lines.push(`  ${i + 1}. ${groupLine(g)}`);
    lines.push(`     e.g. ${g.example.path || '(body)'}: ${show(g.example.reference)} -> ${show(g.example.candidate)}`);
  });
  if (c.groups.length > MAX_GROUPS) lines.push(`  ... and ${c.groups.length - MAX_GROUPS} more groups (compare.html)`);
  lines.push(
    `Outcome: ${c.outcome === 'same' ? 'SAME' : 'DIFFERENT'} (--fail-on ${c.failOn}; exit ${c.exitCode})`,
    `Comparison: ${files.html}`,
    `Also: ${files.json}, ${files.junit}; the candidate's report beside them (report.html), the references' in reference/${second ? ' and second/' : ''}`,
  );
  return lines;
}
