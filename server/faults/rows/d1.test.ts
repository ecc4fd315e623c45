/** Every Document 1 row fault changes the sandbox's answer where the clean sandbox keeps the rule. */
import { expect } from 'vitest';
import { errorCode, extension, ids, paths, resources, withQuery, type Answer } from '../../testSupport.ts';
import { D1_ROW_FAULTS } from './d1.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

type J = any;

const v1Single = { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' };
const v2Single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const memberNumber = (a: Answer) => (a.json as J)?.identifier?.[0]?.value;
const family = (a: Answer) => (a.json as J)?.contained?.find((r: J) => r.resourceType === 'Patient')?.name?.[0]?.family;
const statusAndCode = (a: Answer) => [a.status, errorCode(a.json)];
/** How many times each extension name occurs, per resource. */
const extensionCounts = (resource: J): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const e of resource?.extension ?? []) {
    const name = String(e.url).slice(String(e.url).lastIndexOf('/') + 1);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
};
const maxCount = (resourcesOf: J[], names: string[]) =>
  Math.max(0, ...resourcesOf.flatMap((r) => names.map((n) => extensionCounts(r)[n] ?? 0)));
const detailsOf = async (
  s: { form: (p: string, f: Record<string, string>) => Promise<Answer> },
  summaryId = 'RS-0001',
) => resources((await s.form(paths.detail(summaryId), { count: '50' })).json) as J[];
const claimsOf = (batch: J): J[][] => (batch?.providers ?? []).map((p: J) => p.claims ?? []);
const hospitalSmith = {
  dateCompleted: '2026-03-14',
  treatmentSiteName: 'St Elsewhere Hospital',
  patientLastName: 'Smith',
  patientDateOfBirth: '1980-04-12',
};
const hospitalNone = {
  dateCompleted: '2026-03-14',
  treatmentSiteName: 'St Elsewhere Hospital',
  patientLastName: 'Nobodyxyzzy',
  patientDateOfBirth: '1980-04-12',
};

const SCENARIOS: Record<string, Scenario> = {
  'find-member-v1-answers-other-member': async (clean, faulty) => {
    const c = await clean.findMember('1', v1Single);
    expect([c.status, memberNumber(c)]).toEqual([200, 'BUP100001']);
    const f = await faulty.findMember('1', v1Single);
    expect(f.status).toBe(200);
    expect((f.json as J).resourceType).toBe('Coverage');
    expect(memberNumber(f)).not.toBe('BUP100001');
    // Version 2 keeps its member.
    expect(family(await faulty.findMember('2', v2Single))).toBe('Smith');
  },
  'find-member-v2-answers-other-member': async (clean, faulty) => {
    expect(family(await clean.findMember('2', v2Single))).toBe('Smith');
    const f = await faulty.findMember('2', v2Single);
    expect(f.status).toBe(200);
    expect(family(f)).not.toBe('Smith');
    expect(memberNumber(await faulty.findMember('1', v1Single))).toBe('BUP100001');
  },
  'batch-get-removes-it': async (clean, faulty) => {
    for (const s of [clean, faulty]) expect((await s.get(paths.batch('BATCH-1001'))).status).toBe(200);
    expect(ids((await clean.get(paths.batches)).json)).toContain('BATCH-1001');
    expect(ids((await faulty.get(paths.batches)).json)).not.toContain('BATCH-1001');
  },
  'pending-list-dequeues': async (clean, faulty) => {
    for (const s of [clean, faulty]) expect(ids((await s.get(paths.batches)).json)).toContain('BATCH-1001');
    expect(ids((await clean.get(paths.batches)).json)).toContain('BATCH-1001');
    expect(ids((await faulty.get(paths.batches)).json)).toEqual([]);
  },
  'ack-idempotent-for-unknown-id': async (clean, faulty) => {
    expect(statusAndCode(await clean.delete(paths.batch('BATCH-9999')))).toEqual([404, 'InvalidId']);
    const unknown = await faulty.delete(paths.batch('BATCH-9999'));
    expect([unknown.status, unknown.text]).toEqual([200, '']);
    for (const s of [clean, faulty]) expect((await s.delete(paths.batch('BATCH-1002'))).status).toBe(200);
    expect(statusAndCode(await clean.delete(paths.batch('BATCH-1002')))).toEqual([404, 'InvalidId']);
    expect((await faulty.delete(paths.batch('BATCH-1002'))).status).toBe(200);
  },
  'acknowledged-batch-still-readable': async (clean, faulty) => {
    for (const s of [clean, faulty]) {
      expect((await s.delete(paths.batch('BATCH-1003'))).status).toBe(200);
      expect(ids((await s.get(paths.batches)).json)).not.toContain('BATCH-1003');
      // The acknowledgement itself keeps the rule: a second one gives InvalidId.
      expect(statusAndCode(await s.delete(paths.batch('BATCH-1003')))).toEqual([404, 'InvalidId']);
    }
    expect(statusAndCode(await clean.get(paths.batch('BATCH-1003')))).toEqual([404, 'InvalidId']);
    const f = await faulty.get(paths.batch('BATCH-1003'));
    expect([f.status, (f.json as J).msgId !== undefined]).toEqual([200, true]);
  },
  'ack-unknown-id-removes-oldest': async (clean, faulty) => {
    for (const s of [clean, faulty]) {
      const before = ids((await s.get(paths.batches)).json);
      expect(before[0]).toBe('BATCH-1001');
      expect(statusAndCode(await s.delete(paths.batch('BATCH-9999')))).toEqual([404, 'InvalidId']);
    }
    expect(ids((await clean.get(paths.batches)).json)).toContain('BATCH-1001');
    expect(ids((await faulty.get(paths.batches)).json)).not.toContain('BATCH-1001');
  },
  'coverage-optional-extension-repeated': async (clean, faulty) => {
    const names = ['groupId', 'expiryDate', 'coverType', 'benefitLimit', 'benefitUsed', 'currency'];
    for (const [version, fields] of [
      ['1', v1Single],
      ['2', v2Single],
    ] as const) {
      expect(maxCount([(await clean.findMember(version, fields)).json], names)).toBe(1);
      expect(maxCount([(await faulty.findMember(version, fields)).json], names)).toBe(2);
    }
  },
  'detail-one-to-one-extensions-repeated': async (clean, faulty) => {
    const names = ['invoiceNumber', 'invoiceDate', 'invoiceTotal', 'paidAmount', 'dateCompleted', 'createdOn'];
    expect(maxCount(await detailsOf(clean), names)).toBe(1);
    for (const d of await detailsOf(faulty)) for (const n of names) expect(extensionCounts(d)[n]).toBe(2);
  },
  'detail-optional-extensions-repeated': async (clean, faulty) => {
    const names = ['previousPaidAmount', 'shortAmount', 'collectionService'];
    const c = await detailsOf(clean);
    const f = await detailsOf(faulty);
    expect(maxCount(c, names)).toBe(1);
    // Each of the three is carried, and then repeated, by some detail of the summary.
    for (const n of names) {
      expect(maxCount(c, [n])).toBe(1);
      expect(maxCount(f, [n])).toBe(2);
    }
    expect(maxCount(f, ['invoiceNumber'])).toBe(1);
  },
  'cuid-numbered-across-providers': async (clean, faulty) => {
    const cuids = async (s: typeof clean) =>
      claimsOf((await s.get(paths.batch('BATCH-1001'))).json).map((cs) => cs.map((c) => c.cuid.id));
    expect(await cuids(clean)).toEqual([
      ['1', '2', '3'],
      ['1', '2'],
    ]);
    expect(await cuids(faulty)).toEqual([
      ['1', '2', '3'],
      ['4', '5'],
    ]);
  },
  'claim-short-pay-both-styles': async (clean, faulty) => {
    const both = async (s: typeof clean) =>
      claimsOf((await s.get(paths.batch('BATCH-1002'))).json)
        .flat()
        .filter((c) => (c.shortPay?.length ?? 0) > 0 && (c.shortPayEx?.length ?? 0) > 0).length;
    expect(await both(clean)).toBe(0);
    expect(await both(faulty)).toBeGreaterThan(0);
  },
  'empty-result-as-404': async (clean, faulty) => {
    const empty = [
      withQuery(paths.hospitalList, { dateCompleted: '1901-01-01' }),
      withQuery(paths.hospitalSearch, hospitalNone),
      withQuery(paths.bills, { insurerid: 'bup', invoiceNumber: 'NO-SUCH-INVOICE-000' }),
    ];
    for (const path of empty) {
      const c = await clean.get(path);
      expect([c.status, ids(c.json)]).toEqual([200, []]);
      expect((await faulty.get(path)).status).toBe(404);
    }
    // A result with entries is unchanged.
    expect(ids((await faulty.get(withQuery(paths.bills, { insurerid: 'bup' }))).json).length).toBeGreaterThan(0);
  },
  'detail-unknown-summary-answers-another': async (clean, faulty) => {
    const c = await clean.form(paths.detail('no-such-summary-00000'), {});
    expect(c.status >= 400 && c.status < 500).toBe(true);
    const f = await faulty.form(paths.detail('no-such-summary-00000'), {});
    expect(f.status).toBe(200);
    expect(ids(f.json).length).toBeGreaterThan(0);
    expect(ids(f.json)).toEqual(ids((await faulty.form(paths.detail('RS-0001'), {})).json));
  },
  'authorisation-search-needs-a-filter': async (clean, faulty) => {
    expect((await clean.form(paths.authorisation, { count: '10' })).status).toBe(200);
    expect(statusAndCode(await faulty.form(paths.authorisation, { count: '10' }))).toEqual([
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ]);
    expect((await faulty.form(paths.authorisation, { insurerIdentifier: 'nuh' })).status).toBe(200);
  },
  'hospital-list-needs-date': async (clean, faulty) => {
    expect((await clean.get(paths.hospitalList)).status).toBe(200);
    expect((await faulty.get(paths.hospitalList)).status).toBe(400);
    expect((await faulty.get(withQuery(paths.hospitalList, { dateCompleted: '2026-03-14' }))).status).toBe(200);
  },
  'find-member-v1-retired': async (clean, faulty) => {
    expect((await clean.findMember('1', v1Single)).status).toBe(200);
    expect((await faulty.findMember('1', v1Single)).status).toBe(410);
    expect((await faulty.findMember('2', v2Single)).status).toBe(200);
  },
  'find-member-v1-multiple-match-first-member': async (clean, faulty) => {
    const v1Taylor = { insurerIdentifier: 'bup', lastName: 'Taylor', dateOfBirth: '1985-05-05' };
    expect(statusAndCode(await clean.findMember('1', v1Taylor))).toEqual([400, 'MULTIPLE_MATCH_FOUND']);
    const f = await faulty.findMember('1', v1Taylor);
    expect([f.status, (f.json as J).resourceType, family(f)]).toEqual([200, 'Coverage', 'Taylor']);
    expect(
      statusAndCode(
        await faulty.findMember('2', {
          ...v2Single,
          insurerIdentifier: 'nuh',
          firstInitial: 'A',
          lastName: 'Jones',
          dateOfBirth: '1975-09-30',
        }),
      ),
    ).toEqual([400, 'MULTIPLE_MATCH_FOUND']);
  },
  'pending-list-ids-not-fetchable': async (clean, faulty) => {
    const c = ids((await clean.get(paths.batches)).json);
    expect(c[0]).toBe('BATCH-1001');
    expect((await clean.get(paths.batch(c[0]))).status).toBe(200);
    const f = ids((await faulty.get(paths.batches)).json);
    expect(f[0]).toBe('1001');
    expect(statusAndCode(await faulty.get(paths.batch(f[0])))).toEqual([404, 'InvalidId']);
  },
  'hospital-claims-patient-entries': async (clean, faulty) => {
    const types = async (s: typeof clean) =>
      new Set((resources((await s.get(paths.hospitalList)).json) as J[]).map((r) => r.resourceType));
    expect([...(await types(clean))].sort()).toEqual(['Claim', 'Encounter']);
    expect([...(await types(faulty))].sort()).toEqual(['Claim', 'Encounter', 'Patient']);
  },
  'pre-auth-status-all-refused': async (clean, faulty) => {
    expect((await clean.form(paths.authorisation, { preAuthStatus: 'All' })).status).toBe(200);
    expect(statusAndCode(await faulty.form(paths.authorisation, { preAuthStatus: 'All' }))).toEqual([
      422,
      'MSG_PARAM_INVALID',
    ]);
    expect((await faulty.form(paths.authorisation, { preAuthStatus: 'Active' })).status).toBe(200);
  },
  'action-status-with-provider-refused': async (clean, faulty) => {
    expect((await clean.form(paths.authorisation, { actionStatus: 'with provider' })).status).toBe(200);
    expect((await faulty.form(paths.authorisation, { actionStatus: 'with provider' })).status).toBe(422);
    expect((await faulty.form(paths.authorisation, { actionStatus: 'with insurer' })).status).toBe(200);
  },
  'get-bill-archived-not-found': async (clean, faulty) => {
    expect(((await clean.get(paths.bill('BILL-0009', 'true'))).json as J).id).toBe('BILL-0009');
    expect((await faulty.get(paths.bill('BILL-0009', 'true'))).status).toBe(404);
    expect(((await faulty.get(paths.bill('BILL-0001', 'false'))).json as J).id).toBe('BILL-0001');
  },
  'get-bill-answers-members-first-bill': async (clean, faulty) => {
    expect(((await clean.get(paths.bill('BILL-0006', 'false'))).json as J).id).toBe('BILL-0006');
    expect(((await faulty.get(paths.bill('BILL-0006', 'false'))).json as J).id).toBe('BILL-0001');
    expect(((await faulty.get(paths.bill('BILL-0003', 'false'))).json as J).id).toBe('BILL-0003');
  },
  'summary-search-answers-details': async (clean, faulty) => {
    const types = async (s: typeof clean) =>
      (resources((await s.form(paths.summary, { count: '5' })).json) as J[]).map((r) => r.resourceType);
    expect(new Set(await types(clean))).toEqual(new Set(['PaymentReconciliation']));
    expect(new Set(await types(faulty))).toEqual(new Set(['ClaimResponse']));
  },
  'detail-search-answers-summary': async (clean, faulty) => {
    expect(new Set((await detailsOf(clean)).map((r) => r.resourceType))).toEqual(new Set(['ClaimResponse']));
    const f = await detailsOf(faulty);
    expect(f.map((r) => [r.resourceType, r.id])).toEqual([['PaymentReconciliation', 'RS-0001']]);
  },
  'summary-extension-urls-two-bases': async (clean, faulty) => {
    const bases = async (s: typeof clean) =>
      new Set(
        (resources((await s.form(paths.summary, { count: '5' })).json) as J[]).flatMap((r) =>
          (r.extension as J[]).map((e) => String(e.url).slice(0, String(e.url).lastIndexOf('/'))),
        ),
      ).size;
    expect(await bases(clean)).toBe(1);
    expect(await bases(faulty)).toBe(2);
  },
  'batch-get-answers-list-header': async (clean, faulty) => {
    const c = (await clean.get(paths.batch('BATCH-1001'))).json as J;
    expect([typeof c.msgId, Array.isArray(c.providers)]).toEqual(['string', true]);
    const f = await faulty.get(paths.batch('BATCH-1001'));
    expect(f.status).toBe(200);
    expect(f.json).toEqual({ resourceType: 'Bundle', id: 'BATCH-1001', timestamp: expect.any(String) });
    // The list and an unknown id keep the rule.
    expect(ids((await faulty.get(paths.batches)).json)).toContain('BATCH-1001');
    expect(statusAndCode(await faulty.get(paths.batch('BATCH-9999')))).toEqual([404, 'InvalidId']);
  },
  'hospital-search-patient-not-applied': async (clean, faulty) => {
    const patients = async (s: typeof clean, query: Record<string, string>) =>
      (resources((await s.get(withQuery(paths.hospitalSearch, query))).json) as J[])
        .filter((r) => r.resourceType === 'Claim')
        .map((r) => r.patient.display)
        .sort();
    expect(await patients(clean, hospitalSmith)).toEqual(['John Smith']);
    expect(await patients(faulty, hospitalSmith)).toEqual(['John Smith', 'Robert Wilson']);
    // The day and the site still restrict.
    expect(await patients(faulty, { ...hospitalSmith, dateCompleted: '2026-03-10' })).toEqual(['Henry Wright']);
    const { patientLastName: _, ...withoutName } = hospitalSmith;
    expect((await clean.get(withQuery(paths.hospitalSearch, withoutName))).status).toBe(400);
  },
  'hospital-search-serviced-date-day-early': async (clean, faulty) => {
    const days = async (s: typeof clean) =>
      (resources((await s.get(withQuery(paths.hospitalSearch, hospitalSmith))).json) as J[])
        .filter((r) => r.resourceType === 'Claim')
        .flatMap((r) => r.item.map((i: J) => i.servicedDate));
    expect(await days(clean)).toEqual(['2026-03-14']);
    expect(await days(faulty)).toEqual(['2026-03-13']);
    // The list keeps its dates.
    const listed = (resources((await faulty.get(paths.hospitalList)).json) as J[]).filter(
      (r) => r.resourceType === 'Claim',
    );
    expect(listed[0].item[0].servicedDate).toBe('2026-03-10');
  },
  'find-member-v1-accepts-v2-insurer': async (clean, faulty) => {
    const cin = {
      insurerIdentifier: 'cin',
      membershipNumber: 'CIN100001',
      firstInitial: 'O',
      lastName: 'Green',
      dateOfBirth: '1993-06-06',
    };
    expect(statusAndCode(await clean.findMember('1', cin))).toEqual([422, 'MSG_PARAM_INVALID']);
    const f = await faulty.findMember('1', cin);
    expect([f.status, memberNumber(f), family(f)]).toEqual([200, 'CIN100001', 'Green']);
    // Version 2 keeps its own list: bup is still refused there.
    expect(statusAndCode(await faulty.findMember('2', { ...v2Single, insurerIdentifier: 'bup' }))).toEqual([
      422,
      'MSG_PARAM_INVALID',
    ]);
  },
  'find-member-drops-unreadable-fields': async (clean, faulty) => {
    const refusal = ['MSG_MISSING_MANDATORY_PARAM', 'MSG_PARAM_INVALID', 'MSG_CANT_PARSE_CONTENT'];
    const noInsurer = { membershipNumber: 'BUP100001' };
    expect(statusAndCode(await clean.findMember('1', noInsurer))).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    const f1 = await faulty.findMember('1', noInsurer);
    expect([f1.status, memberNumber(f1)]).toEqual([200, 'BUP100001']);
    const badDate = { ...v1Single, dateOfBirth: '12/04/1980' };
    expect(refusal).toContain(errorCode((await clean.findMember('1', badDate)).json));
    expect((await faulty.findMember('1', badDate)).status).toBe(200);
    const { lastName: _, ...noLastName } = v2Single;
    expect(statusAndCode(await clean.findMember('2', noLastName))).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect(refusal).not.toContain(errorCode((await faulty.findMember('2', noLastName)).json));
    for (const fields of [
      { ...v2Single, firstInitial: '' },
      { ...v2Single, dateOfBirth: '12/04/1980' },
    ]) {
      expect(refusal).toContain(errorCode((await clean.findMember('2', fields)).json));
      expect(refusal).not.toContain(errorCode((await faulty.findMember('2', fields)).json));
    }
    expect(family(await faulty.findMember('2', v2Single))).toBe('Smith');
  },
  'find-member-missing-field-as-invalid': async (clean, faulty) => {
    const noInsurer = { membershipNumber: 'BUP100001' };
    expect(statusAndCode(await clean.findMember('1', noInsurer))).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    expect(statusAndCode(await faulty.findMember('1', noInsurer))).toEqual([422, 'MSG_PARAM_INVALID']);
    const { lastName: _, ...noLastName } = v2Single;
    expect(statusAndCode(await faulty.findMember('2', noLastName))).toEqual([422, 'MSG_PARAM_INVALID']);
    expect((await faulty.findMember('1', v1Single)).status).toBe(200);
  },
  'find-member-reads-json-body': async (clean, faulty) => {
    const asJson = async (s: typeof clean) =>
      s.request('POST', paths.findMember, {
        headers: {
          authorization: `Bearer ${await s.token()}`,
          'su-siteid': 'SITE001',
          'svc-api-version': '2',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: JSON.stringify(v2Single),
      });
    const c = await asJson(clean);
    expect(c.status >= 400 && c.status < 500).toBe(true);
    const f = await asJson(faulty);
    expect([f.status, family(f)]).toEqual([200, 'Smith']);
    expect(family(await faulty.findMember('2', v2Single))).toBe('Smith');
  },
  'summary-filters-negated': async (clean, faulty) => {
    const found = async (s: typeof clean, fields: Record<string, string>) =>
      ids((await s.form(paths.summary, { ...fields, count: '50' })).json);
    const all = await found(clean, {});
    expect(all.length).toBe(48);
    expect(await found(faulty, {})).toEqual(all);
    for (const fields of [
      { provider: 'PRV001' },
      { hasShortFall: 'true' },
      { excludeExported: 'true' },
      { amountInvoiced: 'ge1000' },
    ] as Record<string, string>[]) {
      const c = await found(clean, fields);
      const f = await found(faulty, fields);
      expect(c.length, JSON.stringify(fields)).toBeGreaterThan(0);
      expect(f.length, JSON.stringify(fields)).toBeGreaterThan(0);
      expect(f.filter((id) => c.includes(id))).toEqual([]);
      expect(c.length + f.length).toBe(48);
    }
  },
  'summary-detail-filters-any-detail-differs': async (clean, faulty) => {
    const found = async (s: typeof clean, fields: Record<string, string>) =>
      ids((await s.form(paths.summary, { ...fields, count: '50' })).json);
    expect(await found(clean, { invoiceNumber: 'NO-SUCH-INVOICE-0000' })).toEqual([]);
    expect((await found(faulty, { invoiceNumber: 'NO-SUCH-INVOICE-0000' })).length).toBe(48);
    expect(await found(clean, { invoiceNumber: 'INV-0002-01' })).toEqual(['RS-0002']);
    expect(await found(faulty, { invoiceNumber: 'INV-0002-01' })).toContain('RS-0002');
    expect((await found(faulty, { patientName: 'Zzyzxquorble' })).length).toBe(48);
    // The summary's own filters keep the rule.
    expect(await found(faulty, { provider: 'PRV001' })).toEqual(await found(clean, { provider: 'PRV001' }));
  },
  'detail-filters-negated': async (clean, faulty) => {
    const found = async (s: typeof clean, fields: Record<string, string>) =>
      ids((await s.form(paths.detail('RS-0001'), { ...fields, count: '50' })).json);
    expect((await found(clean, {})).length).toBe(15);
    expect(await found(clean, { invoiceNumber: 'INV-0001-01' })).toEqual(['RD-0001-01']);
    const f = await found(faulty, { invoiceNumber: 'INV-0001-01' });
    expect([f.length, f.includes('RD-0001-01')]).toEqual([14, false]);
    const c = await found(clean, { hasShortFall: 'true' });
    const fs = await found(faulty, { hasShortFall: 'true' });
    expect(c.length).toBeGreaterThan(0);
    expect(fs.filter((id) => c.includes(id))).toEqual([]);
    expect(c.length + fs.length).toBe(15);
  },
  'remittance-search-lenient-values': async (clean, faulty) => {
    const probes: [string, Record<string, string>][] = [
      [paths.summary, { amountInvoiced: 'gt100' }],
      [paths.summary, { dateCreated: 'not-a-range' }],
      [paths.summary, { hasShortFall: 'zzz' }],
      [paths.detail('RS-0001'), { invoiceTotal: 'gt100' }],
      [paths.detail('RS-0001'), { invoiceDate: 'not-a-range' }],
    ];
    for (const [path, fields] of probes) {
      const c = await clean.form(path, fields);
      expect(c.status >= 400 && c.status < 500, JSON.stringify(fields)).toBe(true);
      expect((await faulty.form(path, fields)).status, JSON.stringify(fields)).toBe(200);
    }
    // An empty value is still refused.
    const empty = await clean.form(paths.summary, { count: '' });
    expect(empty.status >= 400 && empty.status < 500).toBe(true);
    expect((await faulty.form(paths.summary, { count: '' })).status).toBe(empty.status);
  },
  'authorisation-status-inverted': async (clean, faulty) => {
    const statuses = async (s: typeof clean, status: string) =>
      new Set(
        (resources((await s.form(paths.authorisation, { status, count: '50' })).json) as J[]).map((r) =>
          extension(r, 'status'),
        ),
      );
    expect([...(await statuses(clean, 'read'))]).toEqual(['read']);
    expect([...(await statuses(faulty, 'read'))]).toEqual(['unread']);
    expect([...(await statuses(faulty, 'unread'))]).toEqual(['read']);
  },
  'authorisation-descending-sort-refused': async (clean, faulty) => {
    expect((await clean.form(paths.authorisation, { _sort: '-issueDate' })).status).toBe(200);
    expect(statusAndCode(await faulty.form(paths.authorisation, { _sort: '-issueDate' }))).toEqual([
      422,
      'MSG_PARAM_INVALID',
    ]);
    expect((await faulty.form(paths.authorisation, { _sort: 'issueDate' })).status).toBe(200);
  },
  'pending-list-pages-wrap-round': async (clean, faulty) => {
    const past = withQuery(paths.batches, { page: '1000', count: '50' });
    const c = await clean.get(past);
    expect([c.status, ids(c.json)]).toEqual([200, []]);
    const f = await faulty.get(past);
    expect(f.status).toBe(200);
    expect(ids(f.json)).toEqual(ids((await faulty.get(withQuery(paths.batches, { page: '1', count: '50' }))).json));
    expect(ids(f.json).length).toBeGreaterThan(0);
  },
  'hospital-search-missing-fields-optional': async (clean, faulty) => {
    const { patientLastName: _, ...withoutName } = hospitalSmith;
    const path = withQuery(paths.hospitalSearch, withoutName);
    expect((await clean.get(path)).status).toBe(400);
    const f = await faulty.get(path);
    expect(f.status).toBe(200);
    expect((resources(f.json) as J[]).some((r) => r.resourceType === 'Claim')).toBe(true);
    expect((await faulty.get(withQuery(paths.hospitalSearch, hospitalNone))).json).toMatchObject({
      resourceType: 'Bundle',
    });
    expect(ids((await faulty.get(withQuery(paths.hospitalSearch, hospitalNone))).json)).toEqual([]);
  },
  'bills-search-every-insurer': async (clean, faulty) => {
    const c = await clean.get(paths.bills);
    expect(c.status >= 400 && c.status < 500).toBe(true);
    const f = await faulty.get(paths.bills);
    expect([f.status, ids(f.json).length]).toEqual([200, 15]);
    expect(ids((await faulty.get(withQuery(paths.bills, { insurerid: 'bup' }))).json).length).toBe(5);
  },
  'bills-search-filters-or': async (clean, faulty) => {
    const found = async (s: typeof clean, query: Record<string, string>) =>
      ids((await s.get(withQuery(paths.bills, query))).json);
    const c = await found(clean, { insurerid: 'bup', invoiceNumber: 'INV-B-0001' });
    expect(c).toEqual(['BILL-0001']);
    const f = await found(faulty, { insurerid: 'bup', invoiceNumber: 'INV-B-0001' });
    expect(f).toContain('BILL-0001');
    expect(f.length).toBe(5);
    expect(await found(faulty, { insurerid: 'bup' })).toEqual(await found(clean, { insurerid: 'bup' }));
  },
  'get-bill-lenient': async (clean, faulty) => {
    for (const path of [paths.bill('BILL-0001', 'maybe'), paths.bill('NO-SUCH-BILL-000', 'false')]) {
      const c = await clean.get(path);
      expect(c.status >= 400 && c.status < 500, path).toBe(true);
      expect((await faulty.get(path)).status, path).toBe(200);
    }
    expect(((await faulty.get(paths.bill('BILL-0001', 'maybe'))).json as J).id).toBe('BILL-0001');
    expect(ids((await faulty.get(paths.bill('NO-SUCH-BILL-000', 'false'))).json)).toEqual([]);
    expect(((await faulty.get(paths.bill('BILL-0009', 'true'))).json as J).id).toBe('BILL-0009');
  },
};

describeRowFaults('Document 1', D1_ROW_FAULTS, SCENARIOS);
