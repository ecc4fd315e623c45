import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { describe, readObject } from './readJson.ts';

/** A cuid id as a positive integer: an integer number or a string of digits. */
function cuidNumber(id: unknown): number | undefined {
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : undefined;
  if (typeof id === 'string' && /^[0-9]{1,15}$/.test(id)) return Number(id);
  return undefined;
}

function providerLabel(provider: Record<string, unknown>, index: number): string {
  const no = provider.providerNo;
  const id = isRecord(no) ? no.id : undefined;
  return typeof id === 'string' || typeof id === 'number'
    ? `provider ${String(id).slice(0, 30)}`
    : `provider ${index + 1}`;
}

/** What is wrong with one provider's cuids. */
function providerProblems(provider: unknown, index: number): string[] {
  if (!isRecord(provider)) return [`provider ${index + 1} is ${describe(provider)}`];
  const label = providerLabel(provider, index);
  if (provider.claims === undefined) return [];
  if (!Array.isArray(provider.claims)) return [`${label} claims is ${describe(provider.claims)}`];
  const problems: string[] = [];
  const numbers: number[] = [];
  provider.claims.forEach((claim, j) => {
    const cuid = isRecord(claim) ? claim.cuid : undefined;
    if (!isRecord(cuid)) {
      problems.push(`${label} claim ${j + 1} has no cuid`);
      return;
    }
    const n = cuidNumber(cuid.id);
    if (n === undefined) problems.push(`${label} claim ${j + 1} cuid.id ${show(cuid.id, 30)}`);
    else numbers.push(n);
    // 2.6: "default and required value Provider" - an absent scope takes the default.
    if (cuid.scope !== undefined && cuid.scope !== 'Provider')
      problems.push(`${label} claim ${j + 1} cuid.scope ${show(cuid.scope, 30)}`);
  });
  if (numbers.length === provider.claims.length) {
    const sorted = [...numbers].sort((a, b) => a - b);
    if (!sorted.every((n, k) => n === k + 1)) {
      problems.push(`${label} cuids ${show(numbers, 60)} are not 1..${numbers.length}`);
    }
  }
  return problems;
}

/**
 * Within each provider of a batch, `claims[].cuid` ids are unique, sequential and contiguous
 * from 1 (in any order) with scope `Provider` (document 1, 2.6).
 */
export const cuidContiguousPerProvider: Check = {
  id: 'cuid-contiguous-per-provider',
  summary: 'Claim cuids are 1..n per provider with scope Provider',
  run: (x) => {
    const read = readObject(x);
    if (!read.ok) return read.finding;
    const providers = read.value.providers;
    if (providers === undefined || providers === null) return skip('The batch has no providers[] to judge');
    if (!Array.isArray(providers)) return fail(`Expected providers[] to be an array, received ${describe(providers)}`);
    const problems = providers.flatMap((p, i) => providerProblems(p, i));
    if (problems.length === 0) return pass(`cuids contiguous for ${providers.length} providers`);
    return fail(`Expected cuids 1..n per provider with scope Provider, received ${listBrief(problems, 3)}`, {
      problems: problems.slice(0, 20),
    });
  },
};
