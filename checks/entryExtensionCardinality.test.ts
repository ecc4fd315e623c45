import { describe, expect, it } from 'vitest';
import { entryExtensionCardinality } from './entryExtensionCardinality.ts';
import { respondedExchange } from './testing.ts';

const ext = (name: string, value: unknown = 'x') => ({
  url: `https://clearing.example/extension/${name}`,
  valueString: value,
});
const summary = (id: string, ...extension: unknown[]) => ({ resourceType: 'PaymentReconciliation', id, extension });
const bundle = (...resources: unknown[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((resource) => ({ resource })),
});
const check = entryExtensionCardinality({
  exactlyOne: ['processedDate'],
  atMostOne: ['paymentMethod'],
  resourceType: 'PaymentReconciliation',
});
const run = (body: unknown) => check.run(respondedExchange({ body }));

describe('entryExtensionCardinality', () => {
  it('passes when every entry has its 1-1 extensions once and 0-1 ones at most once', () => {
    expect(
      run(bundle(summary('a', ext('processedDate'), ext('paymentMethod')), summary('b', ext('processedDate')))).outcome,
    ).toBe('pass');
    expect(run(summary('a', ext('processedDate'))).outcome).toBe('pass');
    expect(
      run(
        bundle(
          { resourceType: 'OperationOutcome', extension: [ext('processedDate'), ext('processedDate')] },
          summary('a', ext('processedDate')),
        ),
      ).outcome,
    ).toBe('pass');
  });

  it('fails on a 1-1 extension duplicated with conflicting values, naming the entry', () => {
    const finding = run(
      bundle(
        summary('a', ext('processedDate')),
        summary('b', ext('processedDate', '2026-01-01'), ext('processedDate', '2026-02-01')),
      ),
    );
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected each extension within its cardinality, received PaymentReconciliation/b processedDate 2 times (1-1)',
    );
    expect(
      run(bundle(summary('a', ext('processedDate'), ext('paymentMethod'), ext('paymentMethod', 'BACS')))).outcome,
    ).toBe('fail');
    expect(run(bundle(summary('a'))).outcome).toBe('fail');
  });

  it('skips an empty bundle and never throws on hostile bodies', () => {
    expect(run(bundle()).outcome).toBe('skip');
    expect(run({ resourceType: 'Bundle', entry: 'x' }).outcome).toBe('fail');
    expect(run([]).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
  });
});
