/**
 * report.html section (the candidate of `conformance compare`, issue 35): "Comparison with
 * REFERENCE", rendered by reports/compareHtml.ts from the comparison the results carry (sealed with
 * them). Absent from every other report.
 */
import { comparisonSectionHtml } from '../../compareHtml.ts';
import { comparisonOf } from '../../compareModel.ts';
import type { ReportContext } from '../context.ts';

export const hasComparison = (ctx: ReportContext): boolean => comparisonOf(ctx.results) !== undefined;

export function comparisonSection(ctx: ReportContext): string {
  const c = comparisonOf(ctx.results);
  return c ? comparisonSectionHtml(c) : '';
}
