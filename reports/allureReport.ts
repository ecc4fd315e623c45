/**
 * The Allure HTML report, built from the `allure-results` folder that a run writes (allure-vitest,
 * see core/allure.ts) with the pinned `allure` package (Allure 3): no Java, no download.
 *
 * The report is Allure's "awesome" report in single-file mode: one index.html that opens from disk
 * with no server and no network, like report.html.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** A report that could not be built; the message is one line, meant to be shown as it is. */
export class AllureReportError extends Error {
  override name = 'AllureReportError';
}

/** The `allure` command of the installed package (its `bin`), found the way Node finds the package. */
function allureCli(): string {
  const entry = createRequire(import.meta.url).resolve('allure');
  // entry is <package>/dist/index.js; the command is <package>/cli.js
  return join(dirname(dirname(entry)), 'cli.js');
}

function fail(message: string): never {
  const error = new AllureReportError(message);
  // A user-facing problem, not a bug: nothing below the message is worth printing.
  error.stack = `${error.name}: ${message}`;
  throw error;
}

function checkResults(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    fail(`Expected an allure-results folder at ${dir}, received nothing there`);
  if (!readdirSync(dir).some((name) => name.endsWith('-result.json'))) {
    fail(`Expected Allure results (*-result.json) in ${dir}, received an empty folder`);
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the pattern exists to strip ANSI colour codes (ESC)
const ANSI = /\x1b\[[0-9;]*m/g;

function runAllure(args: readonly string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [allureCli(), ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, output: output.replace(ANSI, '') }));
  });
}

/**
 * The awesome template loads Google Tag Manager (usage analytics) whenever the report is opened.
 * The report carries a partner's test evidence and must open offline without calling anyone, so
 * that script block is taken out; nothing else in the page loads from the network.
 */
export function withoutAnalytics(html: string): string {
  const src = html.indexOf('https://www.googletagmanager.com/gtag/js');
  if (src < 0) return html;
  const start = html.lastIndexOf('<script', src);
  const firstEnd = html.indexOf('</script>', src);
  const secondEnd = firstEnd < 0 ? -1 : html.indexOf('</script>', firstEnd + 1);
  if (start < 0 || secondEnd < 0 || !html.slice(firstEnd, secondEnd).includes('gtag(')) return html;
  return html.slice(0, start) + html.slice(secondEnd + '</script>'.length);
}

export interface AllureBuildOptions {
  /**
   * Allure 3's history file (JSON Lines, one line per build): read so the report shows trends and
   * each test's earlier outcomes, then this build is appended to it. Keep the file between CI runs
   * (a cache or an artefact) to keep the history; it is created when missing.
   */
  historyFile?: string;
}

/**
 * Builds the Allure report of `resultsDir` into `outDir` (created if needed; files of an earlier
 * build are overwritten, other files are left alone). Throws an `AllureReportError` with a
 * one-line message when there are no results or Allure fails.
 */
export async function buildAllureReport(
  resultsDir: string,
  outDir: string,
  options: AllureBuildOptions = {},
): Promise<{ index: string; historyFile?: string }> {
  const results = resolve(resultsDir);
  const out = resolve(outDir);
  checkResults(results);
  const history = options.historyFile === undefined ? undefined : resolve(options.historyFile);
  if (history !== undefined) {
    if (existsSync(history) && !statSync(history).isFile())
      fail(`Expected an Allure history file at ${history}, received a folder (--allure-history FILE)`);
    mkdirSync(dirname(history), { recursive: true });
  }
  mkdirSync(out, { recursive: true });
  // Allure reads an allurerc from its working directory: an empty one keeps a stray config of the
  // caller's folder (plugins, history, uploads) out of the build.
  const cwd = mkdtempSync(join(tmpdir(), 'conformance-allure-'));
  try {
    const { code, output } = await runAllure(
      [
        'awesome',
        results,
        '--output',
        out,
        '--single-file',
        '--name',
        'API conformance',
        '--cwd',
        cwd,
        ...(history !== undefined ? ['--history-path', history] : []),
      ],
      cwd,
    );
    const index = join(out, 'index.html');
    if (code !== 0 || !existsSync(index)) {
      const reason =
        output
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .pop() ?? 'no output';
      fail(`Expected Allure to build the report in ${out}, received exit code ${code}: ${reason}`);
    }
    writeFileSync(index, withoutAnalytics(readFileSync(index, 'utf8')));
    return { index, ...(history !== undefined ? { historyFile: history } : {}) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
