import { describe as group, expect, it } from 'vitest';
import {
  bundleView,
  describe,
  isBundle,
  readBundle,
  readJson,
  readObject,
  receivedPart,
  resourcesOfType,
} from './readJson.ts';
import { respondedExchange } from './testing.ts';

group('readJson and friends', () => {
  it('reads JSON, skips a truncated body and fails empty or broken ones', () => {
    expect(readJson(respondedExchange({ body: { a: 1 } }))).toEqual({ ok: true, value: { a: 1 } });
    const truncated = readJson(respondedExchange({ body: '{"a":', truncated: true }));
    expect(!truncated.ok && truncated.finding.outcome).toBe('skip');
    const empty = readJson(respondedExchange({ body: '' }));
    expect(!empty.ok && empty.finding.message).toBe('Expected a JSON body, received an empty body');
    const broken = readJson(respondedExchange({ body: 'x'.repeat(100) }));
    expect(!broken.ok && broken.finding.message).toBe(`Expected a JSON body, received "${'x'.repeat(60)}"`);
  });

  it('reads objects and bundles', () => {
    const array = readObject(respondedExchange({ body: [] }));
    expect(!array.ok && array.finding.message).toBe('Expected a JSON object, received an array of 0');
    expect(readBundle(respondedExchange({ body: { entry: [{ resource: { id: 'a' } }, {}] } }))).toMatchObject({
      ok: true,
      value: { entries: [{ resource: { id: 'a' } }, {}], resources: [{ id: 'a' }] },
    });
    const coverage = readBundle(respondedExchange({ body: { resourceType: 'Coverage', entry: [] } }));
    expect(!coverage.ok && coverage.finding.message).toBe('Expected a Bundle, received resourceType "Coverage"');
  });

  it('tells Bundles apart', () => {
    expect(isBundle({ resourceType: 'Bundle' })).toBe(true);
    expect(isBundle({ entry: [] })).toBe(true);
    expect(isBundle({ resourceType: 'Claim', entry: [] })).toBe(false);
    expect(isBundle([])).toBe(false);
    expect(bundleView({ resourceType: 'Bundle', entry: 5 }).ok).toBe(false);
  });

  it('describes values briefly and restates failures', () => {
    expect(describe(null)).toBe('null');
    expect(describe('x'.repeat(100)).length).toBeLessThanOrEqual(60);
    expect(receivedPart({ outcome: 'fail', message: 'Expected A, received B, C' })).toBe('B, C');
    expect(resourcesOfType([{ resourceType: 'A' }, { resourceType: 'B' }], 'B')).toEqual([{ resourceType: 'B' }]);
  });
});
