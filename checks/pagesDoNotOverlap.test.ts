import { describe, expect, it } from 'vitest';
import { pagesDoNotOverlap } from './pagesDoNotOverlap.ts';
import { bundle, respondedExchange } from './testing.ts';

const page = (...ids: string[]) =>
  respondedExchange({ body: bundle(ids.map((id) => ({ resourceType: 'Claim', id }))) });

describe('pagesDoNotOverlap', () => {
  it('passes on disjoint pages', () => {
    const finding = pagesDoNotOverlap.run({ pages: [page('a', 'b'), page('c', 'd'), page()] });
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('4 distinct resources over 3 pages');
  });

  it('names repeated ids with their pages', () => {
    const finding = pagesDoNotOverlap.run({ pages: [page('a', 'b'), page('c', 'a'), page('b', 'c')] });
    expect(finding.message).toBe(
      'Expected no resource on two pages, received Claim/a on pages 1 and 2, Claim/b on pages 1 and 3, Claim/c on pages 2 and 3',
    );
  });

  it('treats the same id of another resource type as another resource', () => {
    const other = respondedExchange({ body: bundle([{ resourceType: 'Encounter', id: 'a' }]) });
    expect(pagesDoNotOverlap.run({ pages: [page('a'), other] }).outcome).toBe('pass');
  });

  it('leaves out unreadable pages and entries without id', () => {
    const noIds = respondedExchange({ body: bundle([{ resourceType: 'Claim' }, { resourceType: 'Claim', id: null }]) });
    expect(
      pagesDoNotOverlap.run({ pages: [page('a'), respondedExchange({ body: 'oops' }), noIds, noIds] }).outcome,
    ).toBe('pass');
  });

  it('skips when no page can be read', () => {
    expect(
      pagesDoNotOverlap.run({ pages: [respondedExchange({ body: '' }), respondedExchange({ body: '' })] }).outcome,
    ).toBe('skip');
  });

  it('skips a walk of fewer than two pages: overlap needs two', () => {
    expect(pagesDoNotOverlap.run({ pages: [] }).outcome).toBe('skip');
    const one = pagesDoNotOverlap.run({ pages: [page('a', 'a')] });
    expect(one).toMatchObject({ outcome: 'skip', message: 'Only 1 page came back; overlap needs two' });
  });
});
