/**
 * House rules of issue 10 that neither the formatter nor the layering rules enforce: suites read
 * like their requirements (short lines, results only through the binder, never an inline pass or
 * fail), and no comment silences a linter the project does not run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/cli.ts';

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path, suffix);
    return name.endsWith(suffix) ? [path] : [];
  });
}

const suiteFiles = filesUnder(join(ROOT, 'suites'), '.ts');
const sourceFiles = ['bin', 'core', 'checks', 'generators', 'reports', 'server', 'spec', 'suites', 'test', 'app', 'cli']
  .map((d) => join(ROOT, d))
  .filter((d) => {
    try {
      return statSync(d).isDirectory();
    } catch {
      return false;
    }
  })
  .flatMap((d) => filesUnder(d, '.ts'));

describe('house rules', () => {
  test('no suite line is over 120 characters', () => {
    const long = suiteFiles.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > 120 ? [`${relative(ROOT, f)}:${i + 1} (${line.length})`] : [])),
    );
    expect(long).toEqual([]);
  });

  test('suites record results only through the binder: no direct record() or verify()', () => {
    const direct = suiteFiles.filter((f) =>
      /import\s*\{[^}]*\b(record|verify)\b[^}]*\}\s*from\s*'[./]*core\/(suite|judgement)\.ts'/.test(
        readFileSync(f, 'utf8'),
      ),
    );
    expect(direct.map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('documented shapes are read by their one reader: no suite, generator, state machine, judge or pact check parses an error code or a payor itself', () => {
    // core/readers/ holds the readers (DESIGN.md): an error code (any coding, top level, InvalidId),
    // a payor's identity. A JSON path in a string (`issue[].details.coding[]`) is a path, not parsing.
    const readers = join(ROOT, 'core', 'readers');
    const dirs = ['suites', 'generators', 'app', 'cli', 'certify', 'pacts', 'scripts', 'core', 'reports', 'checks'];
    const files = dirs
      .flatMap((d) => filesUnder(join(ROOT, d), '.ts'))
      .filter((f) => !f.startsWith(readers) && !f.endsWith('.test.ts'));
    const SHAPES: [RegExp, string][] = [
      [/[\w)]\??\.details\??\.coding/, 'an OperationOutcome coding (core/readers/errorCode.ts)'],
      [/\.issue\??\.?\[0\]/, 'the first issue of an OperationOutcome (core/readers/errorCode.ts)'],
      [/includes\(['"]InvalidId/, 'InvalidId (core/readers/errorCode.ts)'],
      [/\.meta\??\.tag\b/, 'the paging tags (core/readers/paging.ts)'],
      [/Organization\|Person|Payor\\\/\[IC\]/, "a payor's identity (core/readers/payor.ts)"],
    ];
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          SHAPES.filter(([re]) => re.test(line)).map(([, what]) => `${relative(ROOT, f)}:${i + 1} reads ${what}`),
        ),
    );
    expect(found).toEqual([]);
  });

  test('no comment silences a linter the project does not run (Biome is the linter)', () => {
    const silenced = sourceFiles.filter(
      (f) => !f.endsWith('houseRules.test.ts') && readFileSync(f, 'utf8').includes('eslint-disable'),
    );
    expect(silenced.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
