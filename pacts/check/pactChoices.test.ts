/**
 * The pact side of the client's register (DEC-C-13): each choice a consumer pact may make, applied
 * to the suite's own reference pacts merged into one, keeps `pact check` (parts (a) and (b))
 * conformant, and really changes the pact.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { checkPartnerPactAgainstSandbox } from './againstSandbox.ts';
import { checkPartnerPact } from './checkPartnerPact.ts';
import { fewerMembers, PACT_CHOICES } from './pactChoices.ts';

const dir = mkdtempSync(join(tmpdir(), 'pact-choices-'));
type Pact = { interactions: { response?: { status?: number } }[] };
let merged: Pact;

beforeAll(async () => {
  const { generateReferencePacts } = await import('../generate.ts');
  const files = await generateReferencePacts(mkdtempSync(join(tmpdir(), 'reference-pacts-')));
  const pacts = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Pact);
  merged = { ...pacts[0], interactions: pacts.flatMap((p) => p.interactions) };
}, 240_000);

describe('choices a consumer pact may make (DEC-C-13)', () => {
  test('fewerMembers keeps resourceType, the first other member and the first item', () => {
    expect(fewerMembers({ resourceType: 'Bundle', type: 'searchset', entry: [{ a: 1, b: 2 }, { a: 3 }] })).toEqual({
      resourceType: 'Bundle',
      type: 'searchset',
    });
    expect(fewerMembers([{ key: 'k', addressType: 'Street' }, { key: 'j' }])).toEqual([{ key: 'k' }]);
  });

  test('every reference pact passes the whole pact check, (c) verification against the sandbox included', {
    timeout: 600_000,
  }, async () => {
    const file = join(dir, 'reference.json');
    writeFileSync(file, JSON.stringify(merged));
    const o = await checkPartnerPactAgainstSandbox({
      pactFile: file,
      reportDir: join(dir, 'report-whole'),
      operatorProduct: true,
    });
    const bad = o.results!.results.filter((x) => x.status === 'fail' || x.status === 'error' || x.status === 'skip');
    expect(bad.filter((x) => x.check === 'pact-interaction-verified').map((x) => `${x.test}: ${x.message}`)).toEqual(
      [],
    );
    expect(bad.filter((x) => x.status !== 'skip').map((x) => `${x.test}: ${x.check}: ${x.message}`)).toEqual([]);
    expect(
      o.results!.results.filter((x) => x.check === 'pact-interaction-verified' && x.status === 'pass').length,
    ).toBe(merged.interactions.length);
    expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
  });

  test.each(Object.keys(PACT_CHOICES))(
    'the reference pacts with the choice %s stay conformant',
    { timeout: 240_000 },
    async (name) => {
      const chosen = PACT_CHOICES[name].apply(structuredClone(merged) as never) as Pact;
      expect(JSON.stringify(chosen)).not.toEqual(JSON.stringify(merged));
      if (name === 'tests-documented-refusals')
        expect(chosen.interactions.filter((i) => i.response?.status === 401).length).toBeGreaterThan(
          merged.interactions.filter((i) => i.response?.status === 401).length,
        );
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(chosen));
      const o = await checkPartnerPact({
        pactFile: file,
        reportDir: join(dir, `report-${name}`),
        operatorProduct: true,
      });
      const failed = o.results!.results.filter((x) => x.status === 'fail' || x.status === 'error');
      expect(failed.map((x) => `${x.test}: ${x.check}: ${x.message}`)).toEqual([]);
      expect([o.exitCode, o.results?.verdict]).toEqual([0, 'conformant']);
    },
  );
});
