/**
 * `conformance compare`: a differential run (issue 35). The same seed's requests go to a candidate
 * and a reference (a local sandbox by default, holding the data the demo config's fixtures name),
 * and, with `--second`, to a second reference the noise is learnt from; the answers are paired step
 * by step and their differences grouped by operation, path and kind, each said to break a
 * documented row or none (app/compare/). Writes compare.json, compare.junit.xml and compare.html
 * beside the candidate's usual report.
 *
 * Exit codes: 0 no difference beyond noise (under --fail-on), 1 differences, 2 usage or config,
 * 3 a target could not be compared (unreachable), 4 internal error, 130 interrupted.
 */
import { commandName } from '../core/commandName.ts';
import type { RunningSandbox } from '../server/http.ts';
import { type Command, claimReportDir, evidenceMode, integer, parse, reportDirOption, UsageError } from './command.ts';
import { endInterrupted, onInterrupt } from './interrupt.ts';

const CMD = commandName();

/** The word that stands for a sandbox the comparison starts itself. */
const SANDBOX = 'sandbox';

const flags = {
  target: { type: 'string' },
  reference: { type: 'string' },
  second: { type: 'string' },
  config: { type: 'string' },
  'reference-config': { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  only: { type: 'string' },
  'report-dir': { type: 'string' },
  'fail-on': { type: 'string' },
  'allow-destructive': { type: 'boolean' },
  evidence: { type: 'string' },
  concurrency: { type: 'string' },
  'max-requests-per-second': { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

/** An http or https URL, or (where allowed) `sandbox`; anything else is a usage error. */
function address(option: string, value: string | undefined, sandboxAllowed: boolean): string | undefined {
  if (value === undefined) return undefined;
  if (sandboxAllowed && value === SANDBOX) return SANDBOX;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(
      `--${option} must be an http or https URL${sandboxAllowed ? ` or ${SANDBOX}` : ''}, received ${JSON.stringify(value)}`,
    );
  return value;
}

function file(option: string, value: string | undefined): string | undefined {
  if (value === '') throw new UsageError(`--${option} must not be empty`);
  return value;
}

export const compare: Command = {
  help: {
    usage: [
      'compare --target CANDIDATE [--reference PRIMARY] [--second PRIMARY2] [options]',
      'compare --config FILE [options]   (FILE names its "target")',
    ],
    summary: 'send the same requests to a candidate and a reference server and group where their answers differ',
    options: [
      ['--target URL', 'the candidate: the server whose answers are compared'],
      [
        '--reference URL|sandbox',
        'the reference (primary) server; default: a local sandbox, started and stopped by the command, holding the data the demo config names',
      ],
      [
        '--second URL|sandbox',
        'a second reference: the paths where the two references answer the same request otherwise are noise (without it: the documented volatile members)',
      ],
      ['--config FILE', "the candidate's config; default: the sandbox's demo config"],
      [
        '--reference-config FILE',
        "the references' config; default: the demo config for a sandbox, else the candidate's config",
      ],
      ['--seed N', 'seed of the generated cases, the same for every target (printed; default: random)'],
      ['--runs N', 'cases per property (default 25)'],
      ['--only LIST', 'operations to compare: ids with * wildcards, or a document (D1, D2, D3), comma-separated'],
      [
        '--report-dir DIR',
        "where compare.json, compare.junit.xml and compare.html go, beside the candidate's report (default conformance-report; the references' reports in reference/ and second/)",
      ],
      [
        '--fail-on any|documented',
        'any (default): exit 1 on any difference beyond noise; documented: only on one that breaks a documented row',
      ],
      ['--allow-destructive', 'also run the steps that create, change or delete data (on every target alike)'],
      ['--evidence masked|full', 'masked (default) masks personal data in every artefact; full keeps it'],
      ['--concurrency N', 'calls in flight at once in each run (1 to 1000; default: the config, else 8)'],
      ['--max-requests-per-second N', 'requests started per second at most in each run (1 to 100000)'],
      ['--quiet', 'print only the outcome and where the comparison is'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, flags);
    const failOn = (values['fail-on'] as string | undefined) ?? 'any';
    if (failOn !== 'any' && failOn !== 'documented')
      throw new UsageError(`--fail-on must be any or documented, received ${JSON.stringify(failOn)}`);
    const config = file('config', values.config as string | undefined);
    const referenceConfig = file('reference-config', values['reference-config'] as string | undefined);
    const target = address('target', (values.target as string | undefined) ?? (await configTarget(config)), false);
    if (!target) throw new UsageError('compare needs --target URL (or a --config file that names its "target")');
    const reference = address('reference', values.reference as string | undefined, true) ?? SANDBOX;
    const second = address('second', values.second as string | undefined, true);
    const seed = integer('seed', values.seed as string | undefined, 0, 2 ** 31 - 1);
    const runs = integer('runs', values.runs as string | undefined, 1, 10000);
    const concurrency = integer('concurrency', values.concurrency as string | undefined, 1, 1000);
    const maxRequestsPerSecond = integer(
      'max-requests-per-second',
      values['max-requests-per-second'] as string | undefined,
      1,
      100000,
    );
    const evidence = evidenceMode(values.evidence as string | undefined);
    const only = values.only as string | undefined;
    const { selectOperations } = await import('../app/selectOperations.ts');
    try {
      selectOperations(only);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const reportDir = reportDirOption(values['report-dir'] as string | undefined);
    const quiet = values.quiet === true;

    // Held until the comparison is written: the candidate's run commits its report into it, and
    // the folder stays locked while the references run and the comparison is added.
    const folder = claimReportDir(reportDir, { keepAfterCommit: true });
    const sandboxes: RunningSandbox[] = [];
    const controller = new AbortController();
    let judging = false;
    const stopInterrupt = onInterrupt(() => {
      if (!judging) endInterrupted('interrupted before any operation was judged');
      io.err('conformance: interrupted; finishing the suites running (Ctrl-C again to quit at once)');
      controller.abort();
    });
    try {
      const { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } = await import('../server/demoConfig.ts');
      const demo = { config: DEMO_CONFIG_FILE, configShown: "the sandbox's demo config" };
      const sandboxUrl = async (): Promise<string> => {
        const { startSandbox } = await import('../server/http.ts');
        const s = await startSandbox({ host: '127.0.0.1', port: 0 });
        sandboxes.push(s);
        return s.url;
      };
      const candidate = {
        url: target,
        ...(config ? { config, configShown: config } : { ...demo, environmentFallbacks: DEMO_ENVIRONMENT }),
        sandbox: false,
      };
      const primary = async (url: string) =>
        url === SANDBOX
          ? {
              url: await sandboxUrl(),
              ...(referenceConfig ? { config: referenceConfig, configShown: referenceConfig } : demo),
              environmentFallbacks: DEMO_ENVIRONMENT,
              sandbox: true,
            }
          : {
              url,
              ...(referenceConfig
                ? { config: referenceConfig, configShown: referenceConfig }
                : config
                  ? { config, configShown: config }
                  : { ...demo, environmentFallbacks: DEMO_ENVIRONMENT }),
              sandbox: false,
            };
      const ref = await primary(reference);
      const sec = second ? await primary(second) : undefined;

      const head = ['compare', '--target', target];
      if (reference !== SANDBOX) head.push('--reference', reference);
      if (second) head.push('--second', second);
      if (config) head.push('--config', config);
      if (referenceConfig) head.push('--reference-config', referenceConfig);
      if (runs !== undefined) head.push('--runs', String(runs));
      if (values['allow-destructive'] === true) head.push('--allow-destructive');
      if (failOn !== 'any') head.push('--fail-on', failOn);

      const { compareTargets } = await import('../app/compare/compareTargets.ts');
      const { shellWord } = await import('../core/summary.ts');
      const outcome = await compareTargets({
        candidate,
        reference: ref,
        ...(sec ? { second: sec } : {}),
        reportDir: folder.dir,
        ...(seed !== undefined ? { seed } : {}),
        ...(runs !== undefined ? { runs } : {}),
        ...(only !== undefined ? { only } : {}),
        allowDestructive: values['allow-destructive'] === true,
        evidence,
        ...(concurrency !== undefined ? { concurrency } : {}),
        ...(maxRequestsPerSecond !== undefined ? { maxRequestsPerSecond } : {}),
        failOn,
        replay: [CMD, ...head.map(shellWord)].join(' '),
        signal: controller.signal,
        onRunStarted: (role, t) => {
          judging = true;
          if (!quiet) io.err(`${role}: running the suite against ${t.url}${t.sandbox ? ' (sandbox)' : ''}`);
        },
        onRunFinished: (role, o, ms) => {
          if (!quiet && !o.problem)
            io.err(
              `${role}: ${o.results?.verdict ?? 'no verdict'} (exit ${o.exitCode}) in ${(ms / 1000).toFixed(1)} s`,
            );
        },
      });
      if (outcome.problem) {
        io.err(`conformance: ${outcome.problem}`);
        return outcome.exitCode;
      }
      const c = outcome.comparison;
      if (!c || !outcome.files) throw new Error('A comparison without a problem returned nothing');
      if (!quiet) for (const note of outcome.notes ?? []) io.err(`conformance: note: ${note}`);
      const { comparisonLines } = await import('../app/compare/comparisonLines.ts');
      const lines = comparisonLines(c, outcome.files);
      for (const line of quiet ? lines.filter((l) => /^(Outcome|Comparison):/.test(l)) : lines) io.out(line);
      return outcome.exitCode;
    } finally {
      stopInterrupt();
      await Promise.all(sandboxes.map((s) => s.close()));
      folder.release();
    }
  },
};

/** The target a `--config` file names (its `"target"`), when no --target is given. */
async function configTarget(config: string | undefined): Promise<string | undefined> {
  if (config === undefined) return undefined;
  const { readConfigFile } = await import('../core/config.ts');
  try {
    const t = (readConfigFile(config) as { target?: unknown }).target;
    return typeof t === 'string' && t !== '' ? t : undefined;
  } catch {
    return undefined;
  }
}
