#!/usr/bin/env node
// Entry point of the `conformance` command. The installed package runs the compiled CLI
// (dist/bin/cli.js, built by `npm run build` before packing) and compiles nothing at run time.
// A clone holds the TypeScript sources beside this file and runs them through tsx, so what runs
// is always what is checked out (a dist/ left over from packing is never used there).
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
setFlagsFromString('--max-semi-space-size=4');

// Ctrl-C (or SIGTERM) while the command is still loading ends it at once as interrupted (130);
// cli.main installs its own handling first thing, and this one steps aside just before.
const early = () => process.exit(130);
process.on('SIGINT', early);
process.on('SIGTERM', early);

// A reader that goes away (`conformance faults | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const source = new URL('./cli.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../dist/bin/cli.js');
}
process.off('SIGINT', early);
process.off('SIGTERM', early);
process.exitCode = await cli.main(process.argv.slice(2));
