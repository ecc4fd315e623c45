/**
 * The one judging of a client request (pact check and certify-client): every header of the
 * operation's row, parameters, JSON bodies, `|`, reserved and deprecated operations, each at the
 * level of the rows it cites and never stricter.
 */
import { describe, expect, test } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { judgeClientRequest } from './judgeClientRequest.ts';

const RANK = { INFO: 0, SHOULD: 1, MUST: 2 } as const;
const level = new Map(loadRequirements().map((r) => [r.id, r.level]));

function judged(request: Omit<ClientRequest, 'rawQuery'> & { rawQuery?: string }) {
  const out = judgeClientRequest({ rawQuery: '', ...request }, { operatorProduct: true });
  for (const j of out)
    for (const id of j.requirements)
      expect(RANK[j.level], `${j.check} at ${j.level} cites ${id}`).toBeLessThanOrEqual(RANK[level.get(id) ?? 'INFO']);
  return out;
}

describe('judgeClientRequest', () => {
  test('user details with a client token: SU-UserId is asked for (a SHOULD: the documents do not enforce it)', () => {
    const out = judged({
      operation: operation('get-user-details'),
      method: 'GET',
      rawPath: '/accounts/api/restricted/user/U-1001',
      headers: { authorization: 'Bearer client-token' },
    });
    const userId = out.find((j) => j.check === 'client-sends-header' && j.summary.includes('SU-UserId'));
    expect([userId?.status, userId?.level]).toEqual(['warn', 'SHOULD']);
    expect(
      judged({
        operation: operation('get-user-details'),
        method: 'GET',
        rawPath: '/accounts/api/restricted/user/U-1001',
        headers: { authorization: 'Bearer client-token', 'su-userid': 'U-1001' },
      }).find((j) => j.summary.includes('SU-UserId'))?.status,
    ).toBe('pass');
  });

  test('a condition body is judged against its request schema', () => {
    const out = judged({
      operation: operation('create-condition'),
      method: 'POST',
      rawPath: '/patients/condition',
      headers: { authorization: 'Bearer t', 'su-siteid': 'SITE001', 'content-type': 'application/fhir+json' },
      body: JSON.stringify({ resourceType: 'Condition' }),
    });
    const body = out.find((j) => j.check === 'client-body-matches-schema');
    expect(body?.status === 'fail' || body?.status === 'warn').toBe(true);
    expect(body?.message).toMatch(/condition-create-request\.schema\.json/);
  });

  test('every check of a conforming Find Member request passes', () => {
    const out = judged({
      operation: operation('find-member-v2'),
      method: 'POST',
      rawPath: '/membership/find-member',
      headers: {
        authorization: 'Bearer t',
        'su-siteid': 'SITE001',
        'svc-api-version': '2',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'insurerIdentifier=ppp&firstInitial=J&lastName=Smith&dateOfBirth=1980-04-12',
    });
    expect(
      out.filter((j) => j.status !== 'pass' && j.status !== 'skip').map((j) => `${j.check}: ${j.message}`),
    ).toEqual([]);
  });
});
