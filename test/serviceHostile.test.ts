/**
 * The service is a careful client of other people's servers (issue 25, "Bad input and faults"): a
 * partner's server that answers every call with 100 MB, or trickles its answers a byte every two
 * seconds, gets the hostile limits of a CLI run. Its run ends on its own (a verdict that is not
 * conformant, never a stuck job) and the service keeps answering pages meanwhile. The growth of
 * the service's resident set is printed, not asserted (memory is measured by `npm run
 * mem:hostile`). A real service (embedded database) and real hostile servers on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningService, startService } from '../service/startService.ts';
import { newPartner, type Person } from '../service/testSupport/browserless.ts';
import { type HostileServer, startHostileServer } from './support/hostileServer.ts';

const OPERATOR = { email: 'operator@example.test', password: 'operator-password-1' };

let service: RunningService;
const servers: HostileServer[] = [];

beforeAll(async () => {
  service = await startService({
    dataDir: mkdtempSync(join(tmpdir(), 'service-hostile-')),
    environment: {
      CONFORMANCE_SERVICE_OPERATOR_EMAIL: OPERATOR.email,
      CONFORMANCE_SERVICE_OPERATOR_PASSWORD: OPERATOR.password,
      CONFORMANCE_SERVICE_KEY: 'ab'.repeat(32),
    },
    allowRanges: ['loopback'],
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  await Promise.all(servers.map((s) => s.close()));
});

const partner = (name: string): Promise<Person> => newPartner(service.url!, OPERATOR, name);

/** Polls the run's row until it is finished or failed, asking for a page of the service between polls. */
async function untilEnded(person: Person, runId: string, most: number) {
  const deadline = Date.now() + most;
  let pagesAnswered = 0;
  for (;;) {
    const row = await service.ctx.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    if (row.state === 'finished' || row.state === 'failed') return { row, pagesAnswered };
    if (Date.now() > deadline) throw new Error(`Expected the run to end within ${most} ms, it is ${row.state}`);
    const page = await person.get('/products');
    if (page.status === 200) pagesAnswered++;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('a hostile partner server', () => {
  test.each([
    ['huge-body', 'answers every call with 100 MB'],
    ['trickle', 'trickles every answer a byte every two seconds'],
  ] as const)(
    '%s (%s): the run ends not conformant and the service answers meanwhile',
    async (how, _what) => {
      const hostile = await startHostileServer(how);
      servers.push(hostile);
      const person = await partner(`Hostile-${how}`);
      const product = (
        await person.post('/products', {
          name: `Hostile ${how}`,
          version: '1',
          baseUrl: hostile.url,
          only: 'get-code-set',
        })
      ).location!;
      const before = process.memoryUsage().rss;
      const run = (await person.post(`${product}/runs`, {}, product)).location!;
      const { row, pagesAnswered } = await untilEnded(person, run.split('/').pop()!, 170_000);
      const grew = (process.memoryUsage().rss - before) / 1024 / 1024;
      console.log(`service run against ${how}: ${row.state} ${row.verdict ?? ''}, rss +${grew.toFixed(0)} MB`);
      expect(hostile.hits).toBeGreaterThan(0);
      expect(row.state).toBe('finished');
      expect(row.verdict).not.toBe('conformant');
      expect(pagesAnswered).toBeGreaterThan(0);
      const page = await person.get(run);
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/id="verdict">(not-conformant|inconclusive)</);
    },
    180_000,
  );
});
