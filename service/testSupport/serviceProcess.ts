/**
 * The certification service in a process of its own, with settings the command line does not
 * offer (a lease of a few seconds): `node --import tsx service/testSupport/serviceProcess.ts
 * '{"leaseMs":3000,...}'` prints `listening on URL` (or `working on queued runs`) and ends
 * gracefully on SIGINT or SIGTERM. For tests that must stop and resume the whole process
 * (SIGSTOP, SIGCONT), which a service started inside the test's own process cannot be.
 */
import { type ServiceOptions, startService } from '../startService.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as ServiceOptions;
const service = await startService({ ...options, say: (line) => console.log(line) });
console.log(service.url ? `listening on ${service.url}` : 'working on queued runs');
let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  service.close().then(
    () => process.exit(0),
    (e: Error) => {
      console.error(e.message);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
