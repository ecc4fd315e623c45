import { describe, expect, it } from 'vitest';
import { controlParametersForInsurer } from './controlParametersForInsurer.ts';
import { respondedExchange } from './testing.ts';

const org = (insurer: string) =>
  respondedExchange({
    body: {
      resourceType: 'Organization',
      id: '1',
      extension: ['acceptsEDIClaims', 'stvEnabled'].map((n) => ({
        url: `https://ref.example/organization/ins/${insurer}/$control-parameters/${n}`,
        valueString: 'Y',
      })),
    },
  });

describe('controlParametersForInsurer', () => {
  it('passes when every URL names the insurer asked for (letter case ignored)', () => {
    expect(controlParametersForInsurer('INS-01').run(org('INS-01')).outcome).toBe('pass');
    expect(controlParametersForInsurer('INS-01').run(org('ins-01')).outcome).toBe('pass');
  });

  it('fails when a URL names another insurer', () => {
    const finding = controlParametersForInsurer('INS-01').run(org('INS-02'));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toContain('INS-02');
  });

  it('skips an answer without control-parameter extensions', () => {
    expect(
      controlParametersForInsurer('INS-01').run(respondedExchange({ body: { resourceType: 'Organization' } })).outcome,
    ).toBe('skip');
  });
});
