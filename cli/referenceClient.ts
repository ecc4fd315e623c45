/**
 * `conformance reference-client WORKSPACES.json`: the reference client (examples/reference-client)
 * runs every workspace of a certification that `certify-client --config-out` wrote, so that the
 * README's certification recipe runs from any folder with the installed command.
 */
import { type Command, parse, UsageError } from './command.ts';

export const referenceClient: Command = {
  help: {
    usage: ['reference-client WORKSPACES.json [--fault NAME]... [--choice NAME]...'],
    summary: "run the suite's reference client on the workspaces certify-client --config-out wrote",
    options: [
      ['--fault NAME', 'make it break one rule (examples/reference-client: CLIENT_FAULTS)'],
      ['--choice NAME', 'make it take one choice the documents leave open (CLIENT_CHOICES)'],
    ],
  },
  async run(argv, io) {
    const { values, positionals } = parse(
      argv,
      { fault: { type: 'string', multiple: true }, choice: { type: 'string', multiple: true } },
      true,
    );
    if (positionals.length !== 1)
      throw new UsageError('reference-client needs the workspaces file (certify-client --config-out FILE)');
    const { CLIENT_CHOICES, CLIENT_FAULTS, ReferenceClient } = await import(
      '../examples/reference-client/referenceClient.ts'
    );
    const faults = (values.fault ?? []) as string[];
    const choices = (values.choice ?? []) as string[];
    for (const f of faults)
      if (!(f in CLIENT_FAULTS))
        throw new UsageError(`Unknown fault ${f} (faults: ${Object.keys(CLIENT_FAULTS).join(', ')})`);
    for (const c of choices)
      if (!(c in CLIENT_CHOICES))
        throw new UsageError(`Unknown choice ${c} (choices: ${Object.keys(CLIENT_CHOICES).join(', ')})`);
    const { readFileSync } = await import('node:fs');
    let configs: unknown;
    try {
      configs = JSON.parse(readFileSync(positionals[0], 'utf8'));
    } catch (e) {
      throw new UsageError(
        `${positionals[0]} is not a workspaces file (${(e as NodeJS.ErrnoException).code ?? 'not JSON'}): certify-client --config-out writes one`,
      );
    }
    if (
      !Array.isArray(configs) ||
      configs.some((c) => typeof c?.scenario !== 'string' || typeof c?.tokenUrl !== 'string')
    )
      throw new UsageError(`${positionals[0]} is not a workspaces file: certify-client --config-out writes one`);
    type Config = ConstructorParameters<typeof ReferenceClient>[0];
    type Fault = ConstructorParameters<typeof ReferenceClient>[1];
    type Choice = ConstructorParameters<typeof ReferenceClient>[2];
    await Promise.all(
      (configs as Config[]).map((c) => new ReferenceClient(c, faults as Fault, choices as Choice).run()),
    );
    io.out(`reference client: ran ${(configs as Config[]).map((c) => c.scenario).join(', ')}`);
    return 0;
  },
};
