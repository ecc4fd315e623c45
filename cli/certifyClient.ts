/** `conformance certify-client`: workspaces per scenario, the partner's client runs, every request judged. */
import {
  type Command,
  claimReportDir,
  integer,
  parse,
  printOutcome,
  reportDirOption,
  SetupProblem,
  stdio,
  UsageError,
} from './command.ts';
import { onInterrupt } from './interrupt.ts';
import type { Attestation } from '../core/results.ts';

export const certifyClient: Command = {
  help: {
    usage: [
      'certify-client [--config FILE] [--scenarios LIST] [--timeout SECONDS] [--operator-product] [--config-out FILE] [--report-dir DIR] [--quiet]',
      'certify-client --list',
    ],
    summary: "judge a partner's client: a sandbox workspace per scenario records and judges every request it makes",
    options: [
      [
        '--config FILE',
        'a config file whose attestation names the client certified (organisation, product, environment, person); the rest of it is not used',
      ],
      [
        '--scenarios LIST',
        "scenario ids, comma-separated (default: every scenario a partner's client may run, and with --operator-product every scenario; --list shows them)",
      ],
      ['--timeout SECONDS', 'how long the client has to run the scenarios (default 300)'],
      ['--operator-product', "the client is one of the operator's own products (reserved operations are its to call)"],
      [
        '--config-out FILE',
        "write each workspace's addresses and credentials as JSON (for a client started by a script)",
      ],
      ['--host H', 'address the workspaces listen on (default 127.0.0.1)'],
      ['--report-dir DIR', 'where the report folder is written (default conformance-report)'],
      ['--quiet', 'print only the verdict and where the report is'],
      ['--list', 'list the scenarios with what the client must do, and exit'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, {
      config: { type: 'string' },
      scenarios: { type: 'string' },
      timeout: { type: 'string' },
      'operator-product': { type: 'boolean' },
      'config-out': { type: 'string' },
      host: { type: 'string' },
      'report-dir': { type: 'string' },
      quiet: { type: 'boolean' },
      list: { type: 'boolean' },
    });
    const [{ SCENARIOS, isOperatorOnly }, { operation }] = await Promise.all([
      import('../certify/scenarios.ts'),
      import('../spec/operations.ts'),
    ]);
    const operatorProduct = values['operator-product'] === true;
    if (values.list) {
      for (const s of SCENARIOS) {
        io.out(
          `${s.id}  ${s.title}${isOperatorOnly(s) ? '  [operator products only: run with --operator-product]' : ''}`,
        );
        for (const line of s.instructions) io.out(`    ${line}`);
      }
      io.out(
        "Without --scenarios a partner's client runs every scenario not marked [operator products only]; with --operator-product, every scenario.",
      );
      return 0;
    }
    const scenarios = (values.scenarios as string | undefined)
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const known = new Set(SCENARIOS.map((s) => s.id));
    for (const id of scenarios ?? [])
      if (!known.has(id)) throw new UsageError(`Unknown scenario ${id} (see conformance certify-client --list)`);
    const reserved = SCENARIOS.filter((s) => scenarios?.includes(s.id) && isOperatorOnly(s)).map((s) => s.id);
    if (reserved.length > 0 && !operatorProduct)
      io.err(
        `Note: ${reserved.join(', ')} call operations reserved for the operator's own products; without --operator-product each such call fails client-avoids-reserved.`,
      );
    const timeoutMs = (integer('timeout', values.timeout as string | undefined, 1, 86400) ?? 300) * 1000;
    const attestation = await attestationOf(values.config as string | undefined);
    const reportDir = reportDirOption(values['report-dir'] as string | undefined);
    const configOut = values['config-out'] as string | undefined;
    const folder = claimReportDir(reportDir);
    try {
      const { startCertification } = await import('../certify/certification.ts');
      const cert = await startCertification({
        ...(scenarios ? { scenarios } : {}),
        operatorProduct,
        ...(values.host ? { host: values.host as string } : {}),
      });
      try {
        const configs = cert.runs.map((r) => r.workspace.config);
        if (configOut) {
          const { renameSync, writeFileSync } = await import('node:fs');
          try {
            // Written whole, then renamed: a script waiting for the file never reads half of it.
            writeFileSync(`${configOut}.part`, `${JSON.stringify(configs, null, 2)}\n`, { mode: 0o600 });
            renameSync(`${configOut}.part`, configOut);
          } catch (e) {
            throw new UsageError(
              `cannot write ${configOut}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
            );
          }
        }
        // The workspace's client secret is shown on a terminal (the partner types it in), never in a log.
        const showSecret = process.stdout.isTTY === true && io === stdio;
        if (!values.quiet) {
          for (const run of cert.runs) {
            const c = run.workspace.config;
            io.out(`Scenario ${run.scenario.id}: ${run.scenario.title}`);
            for (const line of run.scenario.instructions) io.out(`  ${line}`);
            const services = new Set<string>(run.scenario.operations.map((id) => operation(id).service));
            for (const [service, url] of Object.entries(c.discovery))
              if (services.has(service)) io.out(`  discovery (${service}): ${url}`);
            io.out(`  token endpoint: ${c.tokenUrl}`);
            io.out(
              `  client id: ${c.clientId}  client secret: ${showSecret ? c.clientSecret : `**** (${configOut ? `in ${configOut}` : 'shown on a terminal, or give --config-out'})`}`,
            );
            io.out(`  site id: ${c.siteId}  user: ${c.user.username} / ${showSecret ? c.user.password : '****'}`);
          }
          io.out(`Waiting up to ${timeoutMs / 1000} s for the client (Ctrl-C judges what it has done so far)...`);
        }
        let stopWaiting: () => void = () => undefined;
        const interrupted = new Promise<void>((resolve) => {
          stopWaiting = onInterrupt(resolve);
        });
        // A client that sends nothing is told so early, not only at the time-out.
        const noticeMs = Math.min(30_000, Math.max(1000, Math.floor(timeoutMs / 4)));
        const notice = setTimeout(() => {
          const silent = cert.runs.filter((r) => r.workspace.exchanges.length === 0).map((r) => r.scenario.id);
          if (silent.length > 0)
            io.out(
              `No request has reached ${silent.length === cert.runs.length ? 'any workspace' : `the workspace(s) of ${silent.join(', ')}`} after ${Math.round(noticeMs / 1000)} s: configure your client with the discovery address(es), token endpoint and credentials above, then run the scenario(s).`,
            );
        }, noticeMs);
        try {
          await Promise.race([cert.wait(timeoutMs), interrupted]);
        } finally {
          clearTimeout(notice);
          stopWaiting();
        }
        const outcome = await cert.finish({
          reportDir,
          timeoutMs,
          operatorProduct,
          attestation,
        });
        return await printOutcome(outcome, io, values.quiet === true);
      } finally {
        await cert.close();
      }
    } finally {
      folder.release();
    }
  },
};

/** The attestation of `--config FILE` (checked against the config schema before any workspace starts). */
async function attestationOf(file: string | undefined): Promise<Attestation> {
  if (file === undefined) return {};
  if (file === '') throw new UsageError('--config must not be empty');
  const { ConfigError, readConfigFile } = await import('../core/config.ts');
  try {
    return readConfigFile(file).attestation ?? {};
  } catch (e) {
    if (e instanceof ConfigError) throw new SetupProblem(e.message);
    throw e;
  }
}
