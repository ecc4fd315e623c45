import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { FIND_MEMBER_V1_INSURERS, FIND_MEMBER_V2_INSURERS } from '../spec/operations.ts';
import { personalValuesOf } from '../core/personalData.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from './demoConfig.ts';
import { ALICE, SITES, USER_INFO_CODES, EVENTS } from './fixtures/accounts.ts';
import { AUTHORISATIONS } from './fixtures/authorisations.ts';
import { BATCHES } from './fixtures/batches.ts';
import { BILLS } from './fixtures/bills.ts';
import { CLIENTS } from './fixtures/clients.ts';
import { DIARY_CODES } from './fixtures/diary.ts';
import { MEMBERS } from './fixtures/members.ts';
import { PATIENTS } from './fixtures/patients.ts';
import { REMITTANCE_SUMMARIES } from './fixtures/remittances.ts';

const demo = loadConfig({
  file: DEMO_CONFIG_FILE,
  target: 'http://127.0.0.1:1/',
  environment: {},
  fallbacks: DEMO_ENVIRONMENT,
});
const f = demo.fixtures;
const site = (id: string | undefined) => SITES.find((s) => s.id === id);

describe('the sandbox owns its demo config, and it matches the seed data', () => {
  test('the file is a valid config naming the $schema, and loads with the demo credentials only as fallbacks', () => {
    const raw = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as { $schema?: string };
    expect(raw.$schema).toBe('../core/config.schema.json');
    expect(demo.credentials).toMatchObject({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' });
    expect(() => loadConfig({ file: DEMO_CONFIG_FILE, target: 'http://127.0.0.1:1/', environment: {} })).toThrow(
      /^Environment variables CONFORMANCE_CLIENT_ID, CONFORMANCE_CLIENT_SECRET, .* are not set/,
    );
  });

  test('every demo credential is a client or user of the seed', () => {
    for (const c of Object.values(demo.named)) {
      if (c.type === 'bearer') continue;
      expect(CLIENTS.some((k) => k.clientId === c.clientId && k.clientSecret === c.clientSecret)).toBe(true);
    }
    expect(demo.siteId).toBe(CLIENTS.find((c) => c.clientId === 'sandbox-client')?.siteId);
  });

  test('account fixtures name sites and users in the states they promise', () => {
    expect(f.accounts?.userId).toBe(ALICE);
    expect(site(f.accounts?.inactiveSiteId)?.status).toBe('INACTIVE');
    expect(site(f.accounts?.unconnectedSiteId)).toBeDefined();
    expect(site(f.accounts?.childSiteId)?.parentId).toBeDefined();
    expect(USER_INFO_CODES.some((c) => c.code === f.accounts?.userInfoCode)).toBe(true);
    expect(EVENTS.some((e) => e.snsId === f.accounts?.snsId)).toBe(true);
  });

  test('membership, claims and patient fixtures name records of the seed', () => {
    const single = f.findMemberV1?.single;
    expect(MEMBERS.filter((m) => m.membershipNumber === single?.membershipNumber)).toHaveLength(1);
    expect(MEMBERS.some((m) => m.membershipNumber === f.findMemberV1?.none?.membershipNumber)).toBe(false);
    // A member of an insurer only version 2 serves, named by every field version 1 takes (D1-4.1-07).
    const other = Object.fromEntries(
      Object.entries(f.findMemberV1?.otherVersionInsurer ?? {}).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    );
    expect(FIND_MEMBER_V1_INSURERS).not.toContain(other.insurerIdentifier);
    expect(FIND_MEMBER_V2_INSURERS).toContain(other.insurerIdentifier);
    expect(
      MEMBERS.filter(
        (m) =>
          m.insurer === other.insurerIdentifier &&
          m.membershipNumber === other.membershipNumber &&
          m.family === other.lastName &&
          m.given.startsWith(other.firstInitial ?? '?') &&
          m.sex === other.sex?.toLowerCase() &&
          m.birthDate === other.dateOfBirth &&
          m.address.postalCode === other.postCode,
      ),
    ).toHaveLength(1);
    expect(AUTHORISATIONS.some((a) => a.authCode === f.authorisation?.authCode)).toBe(true);
    expect(REMITTANCE_SUMMARIES.some((r) => r.id === f.remittance?.summaryId)).toBe(true);
    expect(BILLS.some((b) => b.id === f.bills?.billId)).toBe(true);
    expect(BATCHES.some((b) => b.id === f.batches?.foreignBatchId && b.siteId !== demo.siteId)).toBe(true);
    expect(PATIENTS.find((p) => p.resource.id === f.patients?.inactivePatientId)?.resource.active).toBe(false);
    const codes = new Map(DIARY_CODES.map((c) => [c.code, c.response]));
    expect(
      [f.diary?.validCode, f.diary?.invalidCode, f.diary?.unmappedSiteCode].map((c) => codes.get(c ?? '')),
    ).toEqual([2, 1, 3]);
    // The further codes of a target that takes each code once (DEC-D3-70).
    expect([...(f.diary?.validCodes ?? []), ...(f.diary?.unmappedSiteCodes ?? [])].map((c) => codes.get(c))).toEqual([
      2, 2, 2, 2, 2, 3, 3,
    ]);
  });

  test("the demo fixtures name members' and patients' data, not hospitals, addresses of the gazetteer or codes", () => {
    const values = personalValuesOf(f);
    expect(values).toEqual(
      expect.arrayContaining(['Smith', '1980-04-12', 'Jones', '1975-09-30', 'AB1 2CD', 'BUP100001', 'BUP999999']),
    );
    expect(values).toEqual(expect.arrayContaining(['Taylor', 'NUH200001']));
    for (const v of ['St Elsewhere Hospital', '2026-03-14', 'SW1A 2AA', 'Downing Street', 'ppp', 'Female', 'J'])
      expect(values).not.toContain(v);
    for (const v of ['INV-B-0001', 'London']) expect(values).not.toContain(v);
  });
});
