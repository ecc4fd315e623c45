#!/usr/bin/env node
// Entry point of the `conformance` command: loads the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

// A reader that goes away (`conformance faults | head`) is not an error of ours: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

register();
const { main } = await import('./cli.ts');
process.exitCode = await main(process.argv.slice(2));
