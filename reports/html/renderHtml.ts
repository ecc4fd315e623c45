/**
 * report.html: one self-contained file rebuilt from `RunResults`. No external URL of any kind
 * (a Content-Security-Policy with `default-src 'none'` enforces it), inline CSS and one small inline
 * script for the filters (reports/html/assets/, inlined with their hashes in the CSP); the page is
 * complete and readable with scripts disabled.
 *
 * Everything that comes from the results is HTML-escaped: response bodies are hostile input.
 *
 * The page is a list of sections (`ReportSection`, one file each under sections/); a later report
 * part is one more entry in `DEFAULT_SECTIONS`. `htmlPieces` gives the page piece by piece (a
 * section that grows with the run, one result at a time), so that it is written to its file as it
 * is made: against a misbehaving target the page holds hundreds of 20 KB bodies.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IntegrityState } from '../../core/integrity.ts';
import type { RunResults } from '../../core/results.ts';
import { type ReportSection, reportContext } from './context.ts';
import { esc } from './escape.ts';
import { VERDICT_LABEL } from './format.ts';
import { allResultsPieces, allResultsSection } from './sections/allResults.ts';
import { causesPieces, causesSection } from './sections/causes.ts';
import { comparisonSection, hasComparison } from './sections/comparison.ts';
import { coveragePhaseSection, hasCoveragePhase } from './sections/coveragePhase.ts';
import { decisionsSection } from './sections/decisions.ts';
import { documentsSection } from './sections/documents.ts';
import { filtersSection } from './sections/filters.ts';
import { findingsPieces, findingsSection } from './sections/findings.ts';
import { operationsSection } from './sections/operations.ts';
import { overviewSection } from './sections/overview.ts';
import { hasScenarios, scenariosSection } from './sections/scenarios.ts';
import { summarySection } from './sections/summary.ts';
import { traceabilityPieces, traceabilitySection } from './sections/traceability.ts';
import { pageHead } from './pageHead.ts';
import { COMPARISON_STYLE } from '../compareHtml.ts';
import { comparisonOf } from '../compareModel.ts';

const asset = (name: string): string => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
/** The page's styles (assets/report.css). */
const STYLE = asset('report.css');
/**
 * Filters (status checkboxes; level, document and operation lists; text search), keyboard
 * shortcuts (`/` focuses the search, Escape clears it), and opening every <details> for printing
 * (assets/report.js).
 */
const SCRIPT = asset('report.js');

export const DEFAULT_SECTIONS: readonly ReportSection[] = [
  { id: 'overview', title: 'Verdict', render: overviewSection },
  { id: 'causes', title: 'Findings', render: causesSection, pieces: causesPieces },
  { id: 'summary', title: 'Summary', render: summarySection },
  { id: 'comparison', title: 'Comparison', render: comparisonSection, applies: hasComparison },
  { id: 'scenarios', title: 'Scenarios', render: scenariosSection, applies: hasScenarios },
  { id: 'documents', title: 'Documents', render: documentsSection },
  { id: 'operations', title: 'Operations', render: operationsSection },
  { id: 'coverage-phase', title: 'Coverage phase', render: coveragePhaseSection, applies: hasCoveragePhase },
  { id: 'filters', title: 'Filters', render: filtersSection },
  { id: 'findings', title: 'Failures, warnings and errors', render: findingsSection, pieces: findingsPieces },
  {
    id: 'traceability',
    title: 'Requirement traceability',
    render: traceabilitySection,
    pieces: traceabilityPieces,
  },
  { id: 'decisions', title: 'Decisions applied', render: decisionsSection },
  { id: 'all-results', title: 'All results', render: allResultsSection, pieces: allResultsPieces },
];

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Nothing may be fetched; only our own style and script run (a failed escape still could not execute). */
const policy = (style: string): string =>
  `default-src 'none'; style-src ${sha256(style)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;
export const CONTENT_SECURITY_POLICY = policy(STYLE);
/** The page of a comparison's candidate (its section "Comparison with ..."): the comparison's styles added. */
const COMPARED_STYLE = `${STYLE}\n${COMPARISON_STYLE}`;
export const COMPARED_CONTENT_SECURITY_POLICY = policy(COMPARED_STYLE);

function nav(sections: readonly ReportSection[]): string {
  const links = sections
    .filter((s) => s.id !== 'filters')
    .map((s) => `<li><a href="#${esc(s.id)}">${esc(s.title)}</a></li>`)
    .join('');
  return `<nav aria-label="Report sections"><ul>${links}</ul></nav>`;
}

export interface HtmlOptions {
  sections?: readonly ReportSection[];
  /** The state of the results' digest when the caller has just sealed or checked them (else computed). */
  integrity?: IntegrityState;
}

/** The page as one string (tests, small runs); `htmlPieces` gives the same text piece by piece. */
export function renderHtml(results: RunResults, sections: readonly ReportSection[] = DEFAULT_SECTIONS): string {
  return [...htmlPieces(results, { sections })].join('');
}

/** The page piece by piece: the pieces joined are `renderHtml`'s text. */
export function* htmlPieces(results: RunResults, options: HtmlOptions = {}): Generator<string> {
  const ctx = reportContext(results, options.integrity);
  const [first, ...rest] = (options.sections ?? DEFAULT_SECTIONS).filter((s) => s.applies?.(ctx) ?? true);
  const title = `Conformance report: ${VERDICT_LABEL[results.verdict] ?? results.verdict} · ${results.suite.name} ${results.suite.version} · ${results.target}`;
  const of = (s: ReportSection): Iterable<string> => s.pieces?.(ctx) ?? [s.render(ctx)];
  const [csp, style] = comparisonOf(results)
    ? [COMPARED_CONTENT_SECURITY_POLICY, COMPARED_STYLE]
    : [CONTENT_SECURITY_POLICY, STYLE];
  yield [...pageHead(title, csp, style), ''].join('\n');
  if (first !== undefined) yield* of(first);
  yield `\n${nav(rest)}\n<main>\n`;
  for (const s of rest) {
    yield* of(s);
    yield '\n';
  }
  yield ['</main>', `<script>${SCRIPT}</script>`, '</body>', '</html>', ''].join('\n');
}
