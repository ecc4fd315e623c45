/** `conformance pact generate|verify|check`: the reference pacts, Pact's Verifier against a target, a partner's pact judged. */
import {
  type Command,
  claimReportDir,
  existsAsFile,
  existsAsReadableFile,
  outFolder,
  parse,
  printOutcome,
  reportDirOption,
  UsageError,
} from './command.ts';

export const pact: Command = {
  help: {
    usage: [
      'pact generate [--out DIR]',
      'pact verify --target URL [--pact FILE]... [--config FILE] [--states endpoint|fixtures] [--allow-destructive] [--report-dir DIR] [--quiet]',
      'pact check PARTNER.json [--operator-product] [--report-dir DIR] [--quiet]',
    ],
    summary:
      "reference consumer pacts: generate them, verify pacts against a server with Pact's Verifier, check a partner's pact",
    options: [
      ['--out DIR', 'generate: where the reference pacts are written (default pacts-out)'],
      ['--target URL', 'verify: the provider to verify (its services are found through discovery)'],
      ['--pact FILE', 'verify: a pact file to verify (repeatable; default: the reference pacts, generated)'],
      ['--config FILE', 'verify: the target config (default: the sandbox demo config)'],
      [
        '--states endpoint|fixtures',
        "verify: arrange provider states through the target's /_pact/provider-states (default) or the config's fixtures",
      ],
      [
        '--allow-destructive',
        "verify --states fixtures: also verify interactions that change or delete the target's data",
      ],
      [
        '--operator-product',
        "check: the consumer is one of the operator's own products (reserved operations are its to call)",
      ],
      ['--report-dir DIR', 'verify, check: where the report folder is written (default conformance-report)'],
      ['--quiet', 'verify, check: print only the verdict and where the report is'],
    ],
  },
  async run(argv, io) {
    const [sub, ...rest] = argv;
    process.env.PACT_DO_NOT_TRACK = 'true';
    if (sub === 'generate') {
      const { values } = parse(rest, { out: { type: 'string' } });
      const out = (values.out as string | undefined) ?? 'pacts-out';
      if (out === '') throw new UsageError('--out must not be empty');
      if (existsAsFile(out)) throw new UsageError(`--out ${out} is a file, not a folder`);
      outFolder(out);
      const { generateReferencePacts } = await import('../pacts/generate.ts');
      for (const file of await generateReferencePacts(out)) io.out(file);
      return 0;
    }
    if (sub === 'verify') {
      const { values } = parse(rest, {
        target: { type: 'string' },
        pact: { type: 'string', multiple: true },
        config: { type: 'string' },
        states: { type: 'string' },
        'allow-destructive': { type: 'boolean' },
        'report-dir': { type: 'string' },
        quiet: { type: 'boolean' },
      });
      const target = values.target as string | undefined;
      if (!target) throw new UsageError('pact verify needs --target URL');
      const states = (values.states as string | undefined) ?? 'endpoint';
      if (states !== 'endpoint' && states !== 'fixtures')
        throw new UsageError(`--states must be endpoint or fixtures, received ${JSON.stringify(states)}`);
      const pacts = (values.pact as string[] | undefined) ?? [];
      for (const f of pacts) if (!existsAsReadableFile(f)) throw new UsageError(`--pact ${f} is not a readable file`);
      const reportDir = reportDirOption(values['report-dir'] as string | undefined);
      const folder = claimReportDir(reportDir);
      try {
        const { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } = await import('../server/demoConfig.ts');
        const { verifyPacts } = await import('../pacts/verify.ts');
        const outcome = await verifyPacts({
          target,
          ...(pacts.length ? { pactFiles: pacts } : {}),
          ...(values.config
            ? { config: values.config as string }
            : { config: DEMO_CONFIG_FILE, environmentFallbacks: DEMO_ENVIRONMENT }),
          reportDir,
          stateSource: states,
          allowDestructive: values['allow-destructive'] === true,
        });
        return await printOutcome(outcome, io, values.quiet === true);
      } finally {
        folder.release();
      }
    }
    if (sub === 'check') {
      const { values, positionals } = parse(
        rest,
        { 'operator-product': { type: 'boolean' }, 'report-dir': { type: 'string' }, quiet: { type: 'boolean' } },
        true,
      );
      if (positionals.length !== 1) throw new UsageError('pact check needs exactly one pact file');
      // The pact is read before the report folder is claimed: an unreadable one is a usage error.
      const { PactFileError, readPact } = await import('../pacts/readPact.ts');
      try {
        readPact(positionals[0]);
      } catch (e) {
        if (e instanceof PactFileError) throw new UsageError(e.message);
        throw e;
      }
      const reportDir = reportDirOption(values['report-dir'] as string | undefined);
      const folder = claimReportDir(reportDir);
      try {
        const { checkPartnerPactAgainstSandbox } = await import('../pacts/check/againstSandbox.ts');
        const outcome = await checkPartnerPactAgainstSandbox({
          pactFile: positionals[0],
          reportDir,
          operatorProduct: values['operator-product'] === true,
        });
        return await printOutcome(outcome, io, values.quiet === true);
      } finally {
        folder.release();
      }
    }
    throw new UsageError(
      sub === undefined ? 'pact needs generate, verify or check' : `Unknown pact command ${JSON.stringify(sub)}`,
    );
  },
};
