/**
 * Starts the sandbox on its own: `npx tsx server/main.ts [--port 8080] [--host 0.0.0.0]
 * [--fault NAME ...]`. Prints the base URL; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './http.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    fault: { type: 'string', multiple: true, default: [] },
  },
});

const sandbox = await startSandbox({ host: values.host, port: Number(values.port), faults: values.fault });
process.stdout.write(
  `Sandbox listening at ${sandbox.url}${values.fault.length ? ` with faults ${values.fault.join(', ')}` : ''}\n`,
);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
