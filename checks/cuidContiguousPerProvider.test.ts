import { describe, expect, it } from 'vitest';
import { cuidContiguousPerProvider } from './cuidContiguousPerProvider.ts';
import { respondedExchange } from './testing.ts';

const claim = (id: unknown, scope: unknown = 'Provider') => ({ cuid: { id, scope }, chClaimNo: 'x' });
const batch = (...providers: unknown[]) => respondedExchange({ body: { msgId: '1', providers } });
const provider = (no: string, ...claims: unknown[]) => ({ providerNo: { id: no, scheme: 's' }, claims });

describe('cuidContiguousPerProvider', () => {
  it('passes on 1..n per provider in any order, numbers or digit strings', () => {
    expect(
      cuidContiguousPerProvider.run(
        batch(provider('P1', claim(1), claim(2)), provider('P2', claim('2'), claim('1'), claim(3))),
      ).outcome,
    ).toBe('pass');
    expect(cuidContiguousPerProvider.run(batch(provider('P1'))).outcome).toBe('pass');
  });

  it('fails on gaps, duplicates and a start other than 1', () => {
    expect(cuidContiguousPerProvider.run(batch(provider('P1', claim(1), claim(3)))).message).toBe(
      'Expected cuids 1..n per provider with scope Provider, received provider P1 cuids [1,3] are not 1..2',
    );
    expect(cuidContiguousPerProvider.run(batch(provider('P1', claim(1), claim(1)))).outcome).toBe('fail');
    expect(cuidContiguousPerProvider.run(batch(provider('P1', claim(0), claim(1)))).outcome).toBe('fail');
  });

  it('fails on a wrong scope but accepts an absent one (the default)', () => {
    expect(cuidContiguousPerProvider.run(batch(provider('P1', claim(1, 'Batch')))).message).toBe(
      'Expected cuids 1..n per provider with scope Provider, received provider P1 claim 1 cuid.scope "Batch"',
    );
    expect(cuidContiguousPerProvider.run(batch(provider('P1', { cuid: { id: 1 } }))).outcome).toBe('pass');
  });

  it('fails on missing and mistyped cuids without throwing', () => {
    const finding = cuidContiguousPerProvider.run(
      batch(provider('P1', {}, null, claim(null), claim(1.5), claim('1e3'), claim(1e300))),
    );
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toContain('provider P1 claim 1 has no cuid');
    expect(cuidContiguousPerProvider.run(batch(null, 'x', { claims: 'x' })).outcome).toBe('fail');
  });

  it('skips a batch without providers, fails on a mistyped providers member', () => {
    expect(cuidContiguousPerProvider.run(respondedExchange({ body: { msgId: '1' } })).outcome).toBe('skip');
    expect(cuidContiguousPerProvider.run(respondedExchange({ body: { providers: {} } })).message).toBe(
      'Expected providers[] to be an array, received an object without resourceType',
    );
  });

  it('fails on empty and non-JSON bodies', () => {
    expect(cuidContiguousPerProvider.run(respondedExchange({ body: '' })).outcome).toBe('fail');
    expect(cuidContiguousPerProvider.run(respondedExchange({ body: 'x' })).outcome).toBe('fail');
  });
});
