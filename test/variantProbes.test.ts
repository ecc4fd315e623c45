/**
 * Self-test, part 3 (fairness), its probes: every variant must really change what the sandbox
 * answers (a variant that changes nothing proves nothing). Apart from test/variants.test.ts so
 * that the probes run beside its runs rather than before them.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { type Answer, TestSandbox } from '../server/testSupport.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { PROBES as D1_CLAIMS } from './variantProbes/d1Claims.ts';
import { PROBES as D1_MEMBERSHIP } from './variantProbes/d1Membership.ts';
import { PROBES as D2 } from './variantProbes/d2.ts';
import { PROBES as D3 } from './variantProbes/d3.ts';
import { PROBES as PROTOCOL } from './variantProbes/protocol.ts';

const PROBES = { ...PROTOCOL, ...D1_MEMBERSHIP, ...D1_CLAIMS, ...D2, ...D3 };

describe('the variant probes', () => {
  test('every variant has a probe, and every probe a variant', () => {
    expect(VARIANTS.map((v) => v.name).filter((n) => !(n in PROBES))).toEqual([]);
    expect(Object.keys(PROBES).filter((n) => !VARIANTS.some((v) => v.name === n))).toEqual([]);
  });
});

describe('every variant changes what the sandbox answers', () => {
  let clean: TestSandbox;
  const signature = (a: Answer) =>
    `${a.status}\n${a.headers.get('content-type') ?? ''}\n${[...a.headers.keys()].sort().join(',')}\n${a.text}`;

  test.each(VARIANTS.map((v) => [v.name] as const))('%s', async (name) => {
    clean ??= await TestSandbox.start();
    const varied = await TestSandbox.start([], [name]);
    try {
      const [before, after] = [await PROBES[name](clean), await PROBES[name](varied)];
      expect(signature(after), `${name}: the probe's answer is the same with and without the variant`).not.toBe(
        signature(before),
      );
    } finally {
      await varied.close();
    }
  });

  afterAll(async () => {
    await clean?.close();
  });
});
