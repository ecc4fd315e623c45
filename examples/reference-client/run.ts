/**
 * Runs the reference client on every workspace of a certification:
 *
 *   npx conformance certify-client --config-out workspaces.json &
 *   npx tsx examples/reference-client/run.ts workspaces.json [--fault NAME]... [--choice NAME]...
 *
 * It reads the workspaces' addresses and credentials from the file `--config-out` writes, and
 * runs each scenario's flow once. `--fault` makes it break one rule, `--choice` makes one choice the
 * documents leave open (see referenceClient.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  CLIENT_CHOICES,
  CLIENT_FAULTS,
  type ClientChoice,
  type ClientConfig,
  type ClientFault,
  ReferenceClient,
} from './referenceClient.ts';

const { values, positionals } = parseArgs({
  options: { fault: { type: 'string', multiple: true }, choice: { type: 'string', multiple: true } },
  allowPositionals: true,
});
const faults = (values.fault ?? []) as ClientFault[];
for (const f of faults) {
  if (!(f in CLIENT_FAULTS)) {
    process.stderr.write(`run.ts: unknown fault ${f} (faults: ${Object.keys(CLIENT_FAULTS).join(', ')})\n`);
    process.exit(2);
  }
}
const choices = (values.choice ?? []) as ClientChoice[];
for (const c of choices) {
  if (!(c in CLIENT_CHOICES)) {
    process.stderr.write(`run.ts: unknown choice ${c} (choices: ${Object.keys(CLIENT_CHOICES).join(', ')})\n`);
    process.exit(2);
  }
}
if (positionals.length !== 1) {
  process.stderr.write('Usage: run.ts WORKSPACES.json [--fault NAME]... [--choice NAME]...\n');
  process.exit(2);
}
const configs = JSON.parse(readFileSync(positionals[0], 'utf8')) as ClientConfig[];
// No top-level await: copied into a CommonJS project, the file still runs (`npx tsx run.ts`).
Promise.all(configs.map((c) => new ReferenceClient(c, faults, choices).run())).then(
  () => process.stdout.write(`reference client: ran ${configs.map((c) => c.scenario).join(', ')}\n`),
  (e: unknown) => {
    process.stderr.write(`reference client: ${(e as Error).message}\n`);
    process.exitCode = 1;
  },
);
