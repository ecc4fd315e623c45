import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReferenceClient, type ClientChoice } from './examples/reference-client/referenceClient.ts';
import { startCertification } from './certify/certification.ts';
const [scenario, choice, operatorProduct] = process.argv.slice(2);
const cert = await startCertification({ scenarios: scenario.split(',') });
try {
  await Promise.all(cert.runs.map((r) => new ReferenceClient(r.workspace.config, [], choice ? [choice as ClientChoice] : []).run().catch((e) => console.log('client error', e))));
  await cert.wait(1500, 300);
  const o = await cert.finish({ reportDir: join(mkdtempSync(join(tmpdir(), 'h3s-')), 'r'), timeoutMs: 1500, operatorProduct: operatorProduct === 'op' });
  console.log('exit', o.exitCode, o.results?.verdict);
  for (const r of o.results!.results) if (r.status !== 'pass') console.log(' ', r.status, r.level, r.operation, r.check, (r.message ?? '').slice(0, 250));
  for (const x of cert.runs[0].workspace.exchanges) console.log('  >', x.method, x.rawUrl.replace(/^https?:\/\/[^/]+/, ''), (x as any).status ?? '');
} finally {
  await cert.close();
}
