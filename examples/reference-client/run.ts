/**
 * Runs the reference client on every workspace of a certification:
 *
 *   npx conformance certify-client --config-out workspaces.json &
 *   npx tsx examples/reference-client/run.ts workspaces.json [--fault NAME]...
 *
 * It reads the workspaces' addresses and credentials from the file `--config-out` writes, and
 * runs each scenario's flow once. `--fault` makes it break one rule (see referenceClient.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CLIENT_FAULTS, type ClientConfig, type ClientFault, ReferenceClient } from './referenceClient.ts';

const { values, positionals } = parseArgs({
  options: { fault: { type: 'string', multiple: true } },
  allowPositionals: true,
});
const faults = (values.fault ?? []) as ClientFault[];
for (const f of faults) {
  if (!(f in CLIENT_FAULTS)) {
    process.stderr.write(`run.ts: unknown fault ${f} (faults: ${Object.keys(CLIENT_FAULTS).join(', ')})\n`);
    process.exit(2);
  }
}
if (positionals.length !== 1) {
  process.stderr.write('Usage: run.ts WORKSPACES.json [--fault NAME]...\n');
  process.exit(2);
}
const configs = JSON.parse(readFileSync(positionals[0], 'utf8')) as ClientConfig[];
await Promise.all(configs.map((c) => new ReferenceClient(c, faults).run()));
process.stdout.write(`reference client: ran ${configs.map((c) => c.scenario).join(', ')}\n`);
