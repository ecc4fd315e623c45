import { describe, expect, it } from 'vitest';
import { billExtensionUrls } from './billExtensionUrls.ts';
import { respondedExchange } from './testing.ts';

const claim = (id: string, ...urls: string[]) => ({
  resourceType: 'Claim',
  id,
  extension: urls.map((url) => ({ url, valueString: 'x' })),
});
const bundle = (...resources: unknown[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((resource) => ({ resource })),
});
const run = (body: unknown) => billExtensionUrls.run(respondedExchange({ body }));
const REF = 'https://ref.example';

describe('billExtensionUrls', () => {
  it('passes when every named extension is under {ref_url}/extension/Claim/', () => {
    expect(
      run(
        bundle(
          claim('B1', `${REF}/extension/Claim/IsArchived`, `${REF}/extension/Claim/Currency`, `${REF}/other/Unlisted`),
        ),
      ).outcome,
    ).toBe('pass');
    expect(run(claim('B1', `${REF}/extension/Claim/SignatureRequired`)).outcome).toBe('pass');
  });

  it('fails on a named extension moved out of /extension/Claim/', () => {
    const finding = run(
      bundle(claim('B1', `${REF}/extension/Claim/IsArchived`), claim('B2', `${REF}/extension/ClaimStatus`)),
    );
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected extension URLs {ref_url}/extension/Claim/<name>, received Claim/B2 "https://ref.example/extension/ClaimStatus"',
    );
    expect(run(claim('B1', 'Currency')).outcome).toBe('fail');
    expect(run(claim('B1', `${REF}/extension/Encounter/IsArchived`)).outcome).toBe('fail');
    expect(run(claim('B1', '/extension/Claim/IsArchived')).outcome).toBe('fail');
  });

  it('skips without a Claim or a named extension and never throws', () => {
    expect(run(bundle()).outcome).toBe('skip');
    expect(run(claim('B1', `${REF}/x/Other`)).outcome).toBe('skip');
    expect(run({ resourceType: 'Claim', extension: 'x' }).outcome).toBe('skip');
    expect(run([]).outcome).toBe('fail');
    expect(billExtensionUrls.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
