import { describe, expect, it } from 'vitest';
import { batchBelongsToSite } from './batchBelongsToSite.ts';
import { respondedExchange } from './testing.ts';

describe('batchBelongsToSite', () => {
  it('passes when msgRecipient is the site', () => {
    expect(
      batchBelongsToSite('SITE1').run(respondedExchange({ body: { msgId: '1', msgRecipient: 'SITE1' } })).outcome,
    ).toBe('pass');
  });

  it('fails on another or missing recipient', () => {
    expect(batchBelongsToSite('SITE1').run(respondedExchange({ body: { msgRecipient: 'SITE2' } })).message).toBe(
      'Expected msgRecipient "SITE1", received "SITE2"',
    );
    expect(batchBelongsToSite('SITE1').run(respondedExchange({ body: {} })).message).toBe(
      'Expected msgRecipient "SITE1", received <absent>',
    );
    expect(batchBelongsToSite('1').run(respondedExchange({ body: { msgRecipient: 1 } })).outcome).toBe('fail');
  });

  it('fails on empty and non-JSON bodies', () => {
    expect(batchBelongsToSite('SITE1').run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(batchBelongsToSite('SITE1').run(respondedExchange({ body: '<xml/>' })).outcome).toBe('fail');
  });
});
