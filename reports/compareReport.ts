/**
 * The comparison's files in its report folder, beside the candidate's usual report: compare.json
 * (the canonical record, reports/compare.schema.json), compare.junit.xml and compare.html, both
 * rebuilt from it. Each file is written whole under a temporary name and renamed into place, so a
 * reader never sees half of one; a comparison that stops before its end removes the previous
 * comparison's files first (`removeComparison`), so they never stand beside another run's report.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCompareHtml } from './compareHtml.ts';
import { renderCompareJunit } from './compareJunit.ts';
import { COMPARE_HTML, COMPARE_JSON, COMPARE_JUNIT, type Comparison } from './compareModel.ts';

export interface ComparisonPaths {
  json: string;
  junit: string;
  html: string;
}

function writeWhole(file: string, text: string): void {
  const part = `${file}.part-${process.pid}`;
  writeFileSync(part, text);
  renameSync(part, file);
}

/** Removes a previous comparison's files from the folder. */
export function removeComparison(dir: string): void {
  for (const name of [COMPARE_JSON, COMPARE_JUNIT, COMPARE_HTML]) rmSync(join(dir, name), { force: true });
}

export function writeComparison(dir: string, comparison: Comparison): ComparisonPaths {
  const paths = { json: join(dir, COMPARE_JSON), junit: join(dir, COMPARE_JUNIT), html: join(dir, COMPARE_HTML) };
  writeWhole(paths.json, `${JSON.stringify(comparison, null, 2)}\n`);
  writeWhole(paths.junit, renderCompareJunit(comparison));
  writeWhole(paths.html, renderCompareHtml(comparison));
  return paths;
}
