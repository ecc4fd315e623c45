/**
 * Self-test, part 3 (fairness), its probes: every variant must really change what the sandbox
 * answers (a variant that changes nothing proves nothing), and every variant of a composing group
 * must still change it with the rest of its group on (test/support/selfTestPlan.ts, COMPOSING: a
 * variant undone by another of its group would be judged by no run of its own). Apart from
 * test/variants.test.ts so that the probes run beside its runs rather than before them.
 */
import { describe, expect, test } from 'vitest';
import { type Answer, TestSandbox } from '../server/testSupport.ts';
import { VARIANTS } from '../server/variants/catalog.ts';
import { COMPOSING } from './support/selfTestPlan.ts';
import { PROBES as D1_CLAIMS } from './variantProbes/d1Claims.ts';
import { PROBES as D1_MEMBERSHIP } from './variantProbes/d1Membership.ts';
import { PROBES as D2 } from './variantProbes/d2.ts';
import { PROBES as D3 } from './variantProbes/d3.ts';
import { PROBES as D3_SILENCES } from './variantProbes/d3Silences.ts';
import { PROBES as HTTP_FREEDOMS } from './variantProbes/http.ts';
import { PROBES as PROTOCOL } from './variantProbes/protocol.ts';
import { PROBES as REGISTER } from './variantProbes/register.ts';

const PROBES = {
  ...PROTOCOL,
  ...D1_MEMBERSHIP,
  ...D1_CLAIMS,
  ...D2,
  ...D3,
  ...D3_SILENCES,
  ...HTTP_FREEDOMS,
  ...REGISTER,
};

/**
 * What a probe's answer is compared by: status, media type, header names and body text, with the
 * sandbox's own address written as `{sandbox}` (every sandbox listens on a port of its own, and
 * answers that carry addresses, such as the discovery document, would otherwise always differ),
 * every UUID as `{uuid}` (a Bundle's id is drawn anew for each answer), and the digits of a
 * date-time within an hour of now as `#` (a record's lastUpdated is the time it was read), its form
 * kept, so that a variant that writes date-times in another form still shows.
 */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const DATE_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const HOUR_MS = 3_600_000;
const nowShaped = (text: string, now: number) =>
  text.replace(DATE_TIME, (t) => (Math.abs(Date.parse(t) - now) < HOUR_MS ? t.replace(/\d/g, '#') : t));

function signature(a: Answer, sandbox: TestSandbox): string {
  const text = `${a.status}\n${a.headers.get('content-type') ?? ''}\n${[...a.headers.keys()].sort().join(',')}\n${a.text}`;
  return nowShaped(text.replaceAll(new URL(sandbox.url).host, '{sandbox}').replace(UUID, '{uuid}'), Date.now());
}

describe('the variant probes', () => {
  test('every variant has a probe, and every probe a variant', () => {
    expect(VARIANTS.map((v) => v.name).filter((n) => !(n in PROBES))).toEqual([]);
    expect(Object.keys(PROBES).filter((n) => !VARIANTS.some((v) => v.name === n))).toEqual([]);
  });
});

describe('every variant changes what the sandbox answers', () => {
  // Three fresh sandboxes per probe: two clean ones must answer alike (else a difference proves
  // nothing), and the one with the variant otherwise.
  test.each(VARIANTS.map((v) => [v.name] as const))('%s', async (name) => {
    const [clean, again, varied] = await Promise.all([
      TestSandbox.start(),
      TestSandbox.start(),
      TestSandbox.start([], [name]),
    ]);
    try {
      const before = signature(await PROBES[name](clean), clean);
      expect(
        signature(await PROBES[name](again), again),
        `${name}: the probe's answer differs between two clean sandboxes, so a difference proves nothing`,
      ).toBe(before);
      expect(
        signature(await PROBES[name](varied), varied),
        `${name}: the probe's answer is the same with and without the variant`,
      ).not.toBe(before);
    } finally {
      await Promise.all([clean.close(), again.close(), varied.close()]);
    }
  });
});

describe('every variant of a composing group still changes what the sandbox answers with the rest of its group on', () => {
  // The probe is sent twice to each sandbox (its first and second answers compared): a variant of
  // the group may answer the first call in its own way (load-shed-429 refuses the first GET), and
  // what the others change then shows in the second.
  const twice = async (name: string, s: TestSandbox) =>
    `${signature(await PROBES[name](s), s)}\n---\n${signature(await PROBES[name](s), s)}`;

  /** Whether `name` still changes the probe's answers with the rest of `group` on, in the group's order. */
  async function stillActs(name: string, group: readonly string[]): Promise<boolean> {
    // The same order as the group's run (the sandbox applies variants in the order given).
    const [all, others] = await Promise.all([
      TestSandbox.start([], group),
      TestSandbox.start(
        [],
        group.filter((n) => n !== name),
      ),
    ]);
    try {
      return (await twice(name, all)) !== (await twice(name, others));
    } finally {
      await Promise.all([all.close(), others.close()]);
    }
  }

  test.each(COMPOSING.flatMap((group) => group.map((name) => [name, group] as const)))('%s', async (name, group) => {
    expect(
      await stillActs(name, group),
      `${name} is undone by another variant of its group (${group.join(', ')}): reorder the group in test/support/selfTestPlan.ts or take it out`,
    ).toBe(true);
  });

  test('an order that undoes a variant is noticed: json-members-reversed writes the JSON text anew after json-pretty-printed', async () => {
    expect(await stillActs('json-pretty-printed', ['json-pretty-printed', 'json-members-reversed'])).toBe(false);
    expect(await stillActs('json-pretty-printed', ['json-members-reversed', 'json-pretty-printed'])).toBe(true);
  });
});
