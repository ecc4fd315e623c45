/**
 * House rule: a suite step that uses a fixture declares it (issue 22, item 6). A test declares the
 * fixtures it needs (`op.test(name, { fixtures, cites }, fn)`, core/suite.ts) or asks for one where
 * it needs it (`op.need('section.name', ...rows)`); then a fixture missing from the config is one
 * `fixture-configured` skip citing its rows, and one the target answers it does not know is a
 * `fixture-held` skip naming it (suites/common/steps.ts), never a MUST failure of the server.
 * A step that reads a fixture without declaring it bypasses both.
 *
 * The rule reads the suite files (the TypeScript syntax tree, not the text): every read of a
 * fixture (`runContext().fixtures.section.name`, an accessor such as `const A = () =>
 * runContext().fixtures.accounts ?? {}` followed by `.name` or destructured, `fixture('s.n')`)
 * inside a test's function must be declared by that test, or be marked optional on the line
 * before (`// optional fixture: <why an unheld value cannot fail the step>`). Reads outside any
 * test (values mixed into derived requests, accessor definitions) are not steps and are left out.
 *
 * Enforced for the suites converted so far (ENFORCED); for the others the count of undeclared
 * reads may only fall (a ratchet), and the test prints them so they can be converted. The rule
 * sees reads written inside a test's function; a read inside a helper the test calls is the
 * helper's business (keep such helpers taking the value as a parameter).
 *
 * A second part runs the suite against the sandbox with a config naming a member and a user-info
 * code the sandbox does not hold: the steps that needed them are `fixture-held` skips naming the
 * fixture, and nothing fails.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResults } from '../core/results.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { readResults, reportDir, runCli } from './support/cli.ts';

const SUITES = new URL('../suites/', import.meta.url);

/** Suites whose every fixture read inside a test is declared. */
const ENFORCED = [
  'find-member.suite.ts',
  'accounts.suite.ts',
  'sign-on.suite.ts',
  'diary.suite.ts',
  'code-sets.suite.ts',
];

/**
 * Undeclared fixture reads inside tests of the other suites, at most (a ratchet: lower a count
 * when a suite is converted, move it to ENFORCED at zero).
 */
const NOT_YET: Record<string, number> = {
  'address.suite.ts': 3,
  'bills.suite.ts': 8,
  'booking.suite.ts': 4,
  'contracts.suite.ts': 5,
  'hospital-claims.suite.ts': 1,
  'lookups.suite.ts': 1,
  'patients.suite.ts': 1,
  'register.suite.ts': 1,
  'remittance-batches.suite.ts': 2,
  'search-authorisation.suite.ts': 4,
  'search-remittance.suite.ts': 1,
};

/** One fixture read: `section.name`, or `section.*` when the whole section is read. */
interface Read {
  path: string;
  line: number;
  node: ts.Node;
}

const OPTIONAL = /\/\/\s*optional fixture:/;

/** `X.fixtures.section` (X any expression: `runContext()`, `ctx`): the section, else undefined. */
function sectionOf(node: ts.Node): string | undefined {
  if (!ts.isPropertyAccessExpression(node)) return undefined;
  const inner = node.expression;
  return ts.isPropertyAccessExpression(inner) && inner.name.text === 'fixtures' ? node.name.text : undefined;
}

/** The expression an accessor returns, through parentheses, `?? {}` and `as const`. */
function unwrap(e: ts.Expression): ts.Expression {
  let x = e;
  for (;;) {
    if (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isNonNullExpression(x)) x = x.expression;
    else if (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) x = x.left;
    else return x;
  }
}

/** File-level names bound to a fixture section: `const A = () => runContext().fixtures.accounts ?? {}`. */
function accessors(file: ts.SourceFile): Map<string, { section: string; call: boolean }> {
  const out = new Map<string, { section: string; call: boolean }>();
  const visit = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      const init = unwrap(n.initializer);
      if (ts.isArrowFunction(init) && !ts.isBlock(init.body)) {
        const section = sectionOf(unwrap(init.body));
        if (section) out.set(n.name.text, { section, call: true });
      } else {
        const section = sectionOf(init);
        if (section) out.set(n.name.text, { section, call: false });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

/** The member names a read of a section value takes: `.name`, `?.name`, or a destructuring. */
function membersTaken(value: ts.Expression): string[] | undefined {
  let top: ts.Node = value;
  while (
    top.parent &&
    (ts.isParenthesizedExpression(top.parent) ||
      ts.isNonNullExpression(top.parent) ||
      (ts.isBinaryExpression(top.parent) &&
        top.parent.left === top &&
        top.parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken))
  )
    top = top.parent;
  const parent = top.parent;
  if (parent && ts.isPropertyAccessExpression(parent) && parent.expression === top) return [parent.name.text];
  if (parent && ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name))
    return parent.name.elements.map((e) =>
      e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : (e.name as ts.Identifier).text,
    );
  return undefined;
}

/** Every fixture read of a suite file. */
function readsOf(file: ts.SourceFile): Read[] {
  const named = accessors(file);
  const reads: Read[] = [];
  const add = (section: string, value: ts.Expression, node: ts.Node) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    for (const m of membersTaken(value) ?? ['*']) reads.push({ path: `${section}.${m}`, line, node });
  };
  const visit = (n: ts.Node) => {
    const section = sectionOf(n);
    // A section read directly, unless it is an accessor's own definition.
    if (section && !isAccessorBody(n, named)) add(section, n as ts.Expression, n);
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) {
      const accessor = named.get(n.expression.text);
      if (accessor?.call) add(accessor.section, n, n);
      const [arg] = n.arguments;
      if (n.expression.text === 'fixture' && arg && ts.isStringLiteralLike(arg)) {
        const line = file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1;
        reads.push({ path: arg.text, line, node: n });
      }
    }
    if (ts.isIdentifier(n) && !ts.isVariableDeclaration(n.parent)) {
      const accessor = named.get(n.text);
      if (accessor && !accessor.call && !ts.isCallExpression(n.parent)) add(accessor.section, n, n);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return reads;
}

function isAccessorBody(n: ts.Node, named: Map<string, unknown>): boolean {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
    if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name) && named.has(p.name.text)) return true;
    if (ts.isBlock(p) || ts.isSourceFile(p)) return false;
  }
  return false;
}

/** A call of a vitest test: `test(...)`, `it(...)`, `op.test(...)`, `on(id).test(...)`, `flow.on(id).test(...)`. */
function isTestCall(n: ts.Node): n is ts.CallExpression {
  if (!ts.isCallExpression(n)) return false;
  const callee = n.expression;
  if (ts.isIdentifier(callee)) return callee.text === 'test' || callee.text === 'it';
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 'test';
}

/** The `fixtures: [...]` strings of a needs expression: an object literal, a const naming one, or a function returning one. */
function declaredBy(e: ts.Expression | undefined, file: ts.SourceFile): string[] {
  if (e === undefined) return [];
  const x = unwrap(e);
  if (ts.isObjectLiteralExpression(x)) {
    for (const p of x.properties)
      if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'fixtures') {
        const list = unwrap(p.initializer);
        if (ts.isArrayLiteralExpression(list))
          return list.elements.flatMap((el) => (ts.isStringLiteralLike(el) ? [el.text] : []));
      }
    return [];
  }
  const name = ts.isIdentifier(x)
    ? x.text
    : ts.isCallExpression(x) && ts.isIdentifier(x.expression)
      ? x.expression.text
      : '';
  if (name === '') return [];
  let found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.initializer) {
      const init = unwrap(n.initializer);
      found = ts.isArrowFunction(init) && !ts.isBlock(init.body) ? declaredBy(init.body, file) : declaredBy(init, file);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found;
}

/** Fixtures a test body asks for with `need('s.n', ...)`; `*` when a need names a computed path. */
function neededIn(body: ts.Node): string[] {
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      const [arg] = n.arguments;
      if (name === 'need' && arg) out.push(ts.isStringLiteralLike(arg) ? arg.text : '*');
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return out;
}

/** True when the statement holding the read is preceded by an `// optional fixture:` comment. */
function markedOptional(node: ts.Node, file: ts.SourceFile): boolean {
  let statement: ts.Node = node;
  while (statement.parent && !ts.isBlock(statement.parent) && !ts.isSourceFile(statement.parent))
    statement = statement.parent;
  const comments = ts.getLeadingCommentRanges(file.text, statement.getFullStart()) ?? [];
  return comments.some((c) => OPTIONAL.test(file.text.slice(c.pos, c.end)));
}

/** Reads inside a test's function that the test does not declare: `line: section.name`. */
function undeclaredReads(source: string, fileName = 'suite.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const read of readsOf(file)) {
    let call: ts.CallExpression | undefined;
    for (let p: ts.Node | undefined = read.node.parent; p; p = p.parent)
      if (isTestCall(p)) {
        call = p;
        break;
      }
    if (call === undefined) continue;
    const fn = call.arguments[call.arguments.length - 1];
    if (fn === undefined || read.node.pos < fn.pos) continue;
    const declared = call.arguments.length >= 3 ? declaredBy(call.arguments[1], file) : [];
    const needed = neededIn(fn);
    const [section] = read.path.split('.');
    const ok =
      declared.includes(read.path) ||
      needed.includes(read.path) ||
      needed.includes('*') ||
      (read.path.endsWith('.*') && [...declared, ...needed].some((d) => d.startsWith(`${section}.`)));
    if (!ok && !markedOptional(read.node, file)) out.push(`${read.line}: ${read.path}`);
  }
  return [...new Set(out)];
}

const suiteFiles = readdirSync(SUITES).filter((f) => f.endsWith('.suite.ts'));
const undeclared = new Map(
  suiteFiles.map((f) => [f, undeclaredReads(readFileSync(new URL(f, SUITES), 'utf8'), f)] as const),
);

describe('house rule: a suite step that uses a fixture declares it', () => {
  test('the rule reads declarations, needs, accessors, destructuring and optional marks', () => {
    const source = `
      const A = () => runContext().fixtures.accounts ?? {};
      const needs = { fixtures: ['accounts.userId'], cites: ['R'] } as const;
      const many = (...cites) => ({ fixtures: ['accounts.snsId'], cites }) as const;
      describeDerivedRequests({ x: { fixtures: fixturesFrom({ a: runContext().fixtures.accounts?.snsId }) } });
      on(id).test('declared', needs, async ([u]) => { call(A().userId); });
      op.test('declared by a function', many('R'), async () => { call(A()?.snsId); });
      test('plain', async () => { const { userId, snsId } = A(); call(fixture('diary.validCode')); });
      op.test('asked', { cites: ['R'] }, async () => { const c = op.need('accounts.childSiteId', 'R'); call(A().childSiteId); });
      test('optional', async () => {
        // optional fixture: an id the target does not hold cannot fail this step
        const inactive = runContext().fixtures.accounts?.inactiveSiteId;
      });
      test('undeclared direct', async () => { call(runContext().fixtures.bills?.billId); });
    `;
    expect(undeclaredReads(source)).toEqual([
      '8: accounts.userId',
      '8: accounts.snsId',
      '8: diary.validCode',
      '14: bills.billId',
    ]);
  });

  test.each(ENFORCED)('%s: every fixture read inside a test is declared by it', (file) => {
    expect(undeclared.get(file)).toEqual([]);
  });

  test('the other suites: undeclared reads only fall (convert them, then add the file to ENFORCED)', () => {
    const over = suiteFiles
      .filter((f) => !ENFORCED.includes(f))
      .filter((f) => (undeclared.get(f)?.length ?? 0) > (NOT_YET[f] ?? 0))
      .map((f) => `${f}: ${undeclared.get(f)?.join(', ')} (at most ${NOT_YET[f] ?? 0})`);
    expect(over).toEqual([]);
  });
});

const TIMEOUT = 240_000;
const DEMO = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as {
  fixtures: {
    findMemberV2: { single: Record<string, string> };
    accounts: Record<string, string>;
  };
};
let sandbox: RunningSandbox | undefined;
let results: RunResults;

beforeAll(async () => {
  const config = structuredClone(DEMO);
  // A member nobody has, and a user-info code the sandbox never issued.
  config.fixtures.findMemberV2.single = { ...config.fixtures.findMemberV2.single, lastName: 'Nobodyheld' };
  config.fixtures.accounts.userInfoCode = 'CODE-NOT-HELD-000';
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-config-')), 'unheld.json');
  writeFileSync(file, JSON.stringify(config));
  sandbox = await startSandbox();
  const dir = reportDir();
  await runCli(
    [
      'run',
      '--target',
      sandbox.url,
      '--config',
      file,
      '--only',
      'find-member-v2,get-user-info',
      '--runs',
      '2',
      '--seed',
      '7',
      '--report-dir',
      dir,
    ],
    { timeoutMs: TIMEOUT, env: DEMO_ENVIRONMENT },
  );
  results = readResults(dir);
}, TIMEOUT);

afterAll(async () => {
  await sandbox?.close();
});

describe('a declared fixture the target does not hold', () => {
  test('is a fixture-held skip naming it, never a MUST failure', () => {
    const skips = results.results.filter((r) => r.check === 'fixture-held');
    const named = skips.map((r) => `${r.operation} ${r.message.split(' (')[0]}`);
    expect(named).toEqual(
      expect.arrayContaining([
        'find-member-v2 fixture not held by the target: fixtures.findMemberV2.single',
        'get-user-info fixture not held by the target: fixtures.accounts.userInfoCode',
      ]),
    );
    const failures = results.results.filter((r) => r.level === 'MUST' && r.status === 'fail');
    expect(failures.map((r) => `${r.operation} ${r.check}: ${r.message}`)).toEqual([]);
  });
});
