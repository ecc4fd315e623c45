import { describe, expect, it } from 'vitest';
import { summaryExtensionUrls } from './summaryExtensionUrls.ts';
import { respondedExchange } from './testing.ts';

const summary = (id: string, ...urls: string[]) => ({
  resourceType: 'PaymentReconciliation',
  id,
  extension: urls.map((url) => ({ url, valueString: 'x' })),
});
const bundle = (...resources: unknown[]) => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((resource) => ({ resource })),
});
const run = (body: unknown) => summaryExtensionUrls.run(respondedExchange({ body }));
const EXT = 'https://clearing.example/ext';

describe('summaryExtensionUrls', () => {
  it('passes when every documented extension of every summary shares one base', () => {
    expect(
      run(
        bundle(
          summary('S1', `${EXT}/processedDate`, `${EXT}/totalInvoiced`, 'https://other.example/unlisted'),
          summary('S2', `${EXT}/isExported`),
        ),
      ).outcome,
    ).toBe('pass');
  });

  it('fails on two bases, across extensions or across summaries', () => {
    expect(
      run(bundle(summary('S1', `${EXT}/processedDate`, 'https://ref.example/extension/totalInvoiced'))).message,
    ).toBe(
      'Expected one {clearing_ext_url} for every extension, received 2: https://clearing.example/ext (processedDate), https://ref.example/extension (totalInvoiced)',
    );
    expect(
      run(bundle(summary('S1', `${EXT}/processedDate`), summary('S2', 'https://x.example/processedDate'))).outcome,
    ).toBe('fail');
  });

  it('fails on a bare name and skips without a documented extension', () => {
    expect(run(bundle(summary('S1', 'processedDate'))).outcome).toBe('fail');
    expect(run(bundle(summary('S1', `${EXT}/unlisted`))).outcome).toBe('skip');
    expect(run(bundle()).outcome).toBe('skip');
  });

  it('fails on a body that is not a bundle', () => {
    expect(run({ resourceType: 'PaymentReconciliation' }).outcome).toBe('fail');
  });
});
