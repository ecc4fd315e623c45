import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, ids, paths, tags, withQuery } from '../testSupport.ts';

type J = any;

// A fresh sandbox per test: payor and price operations change state.
let sb: TestSandbox;
beforeEach(async () => {
  sb = await TestSandbox.start();
});
afterEach(() => sb.close());

const PROCEDURE = `${REF_URL}/procedure`;
const get = async (path: string, query: Record<string, string> = {}) => sb.contract('GET', withQuery(path, query));
const authorityOf = (c: J) => c.authority?.[0]?.reference;
const subTypeOf = (c: J) => c.subType[0].coding[0].display;
/** Service code -> procedure codes of a price Contract, asset by asset. */
const pricesOf = (c: J) =>
  c.term[0].asset.map((a: J) =>
    a.valuedItem
      .map(
        (v: J) =>
          `${v.entityCodeableConcept.coding[0].system === 'ISC' ? 'S' : 'P'}:${v.entityCodeableConcept.coding[0].code}${v.net ? `=${v.net.value}` : ''}`,
      )
      .join(' '),
  );

const payorBody = (authority: string, site = 'SITE001', extra: Record<string, unknown> = {}) => ({
  resourceType: 'Contract',
  subject: [{ reference: `Site/${site}` }],
  authority: [{ reference: authority, display: `Payor ${authority}` }],
  ...extra,
});

const priceBody = (
  payor: string,
  items: { system: string; code: string; fee?: number }[],
  extra: { site?: string; practitioner?: string; location?: string } = {},
) => ({
  resourceType: 'Contract',
  id: 'CT-0003',
  subject: [
    { reference: `Site/${extra.site ?? 'SITE001'}` },
    ...(extra.practitioner ? [{ reference: `Practitioner/${extra.practitioner}` }] : []),
  ],
  term: [
    {
      asset: [
        {
          type: { coding: [{ code: 'PriceGroupAssignment' }] },
          context: [
            { reference: { reference: `Payor/${payor}` } },
            ...(extra.location ? [{ reference: { reference: `Location/${extra.location}` } }] : []),
          ],
          valuedItem: items.map((i) => ({
            entityCodeableConcept: { coding: [{ system: i.system, code: i.code, display: `Display ${i.code}` }] },
            ...(i.fee === undefined ? {} : { net: { value: i.fee } }),
          })),
        },
      ],
    },
  ],
});

const svc = (code: string, fee?: number) => ({ system: 'ISC', code, ...(fee === undefined ? {} : { fee }) });
const proc = (code: string, fee?: number) => ({ system: PROCEDURE, code, ...(fee === undefined ? {} : { fee }) });

describe('Contract types and sub types (4.5)', () => {
  test('ValueSets of PRICING and of the three sub types, with their systems', async () => {
    const types = await get(paths.contractTypes);
    expect(types.status).toBe(200);
    expect(types.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    expect((types.json as J).expansion.contains).toEqual([
      { system: `${sb.url}/contracts/valueset/contract-type`, code: 'PRICING', display: 'Pricing' },
    ]);
    const subtypes: J = (await get(paths.contractSubtypes)).json;
    expect(subtypes).toMatchObject({ resourceType: 'ValueSet', expansion: { total: 3, offset: 0 } });
    expect(subtypes.expansion.contains.map((c: J) => [c.system, c.code])).toEqual(
      ['FEE_SCHEDULE', 'PRACTITIONER_BESPOKE_CONTRACT', 'SELF_PAY'].map((code) => [
        `${sb.url}/contracts/valueset/contract-subtype/PRICING`,
        code,
      ]),
    );
    const page2: J = (await get(paths.contractSubtypes, { page: '2', count: '2' })).json;
    expect(page2.expansion).toMatchObject({ total: 3, offset: 2, contains: [{ code: 'SELF_PAY' }] });
  });

  test('a bearer token is needed (DEC-D3-16)', async () => {
    const a = await sb.contract('GET', paths.contractTypes, undefined, { token: null });
    expect([a.status, errorCode(a.json)]).toEqual([401, 'MSG_UNAUTHORIZED']);
    expect((await sb.contract('GET', paths.contractTypes, undefined, { token: await sb.userToken() })).status).toBe(
      200,
    );
  });
});

describe('List payors of a site (4.5; DEC-D3-12)', () => {
  test('SITE001: slf, na, bup and a contact, as Contracts with subject Site and authority', async () => {
    const a = await get(paths.sitePayors('SITE001'));
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 4 });
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: '4' });
    expect(b.entry.map((e: J) => authorityOf(e.resource))).toEqual([
      'Organization/slf',
      'Organization/na',
      'Organization/bup',
      'Person/CN-0001',
    ]);
    expect(b.entry[2].resource).toEqual({
      resourceType: 'Contract',
      id: 'CT-0003',
      meta: { lastUpdated: expect.any(String) },
      subject: [{ reference: 'Site/SITE001' }],
      authority: [{ id: 'payor', reference: 'Organization/bup', display: 'Bupa' }],
      type: { coding: [{ system: `${sb.url}/contracts/valueset/contract-type`, code: 'PRICING', display: 'Pricing' }] },
      subType: [
        {
          coding: [
            { system: `${sb.url}/contracts/valueset/contract-subtype/PRICING`, code: 'I', display: 'FEE_SCHEDULE' },
          ],
        },
      ],
    });
    expect(b.entry[3].resource.subType[0].coding[0].code).toBe('C');
  });

  test('a site without slf and na gets them on the first listing, once', async () => {
    const first: J = (await get(paths.sitePayors('SITE005'))).json;
    expect(first.entry.map((e: J) => authorityOf(e.resource))).toEqual(['Organization/slf', 'Organization/na']);
    const second: J = (await get(paths.sitePayors('SITE005'))).json;
    expect(ids(second)).toEqual(ids(first));
    const site2: J = (await get(paths.sitePayors('SITE002'))).json;
    expect(site2.entry.map((e: J) => authorityOf(e.resource))).toEqual([
      'Organization/bup',
      'Organization/ppp',
      'Organization/slf',
      'Organization/na',
    ]);
  });

  test('paging; no site id is 400', async () => {
    const b: J = (await get(paths.sitePayors('SITE001'), { page: '2', count: '3' })).json;
    expect(tags(b)).toEqual({ page: '2', count: '3', maxCount: '4' });
    expect(ids(b)).toEqual(['CT-0004']);
    const bare = await get('/contracts/contract/site');
    expect([bare.status, errorCode(bare.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
  });
});

describe('Create, update and delete payors and contacts (4.5; DEC-D3-13, -14)', () => {
  test('create a payor, upsert it again (same id), delete it: MSG_DELETED_ID; gone from the list', async () => {
    const a = await sb.contract('POST', paths.contract, payorBody('Organization/CONF-INS'));
    expect(a.status).toBe(200);
    const c: J = a.json;
    expect(c).toMatchObject({
      resourceType: 'Contract',
      id: 'CT-1001',
      authority: [{ reference: 'Organization/CONF-INS', display: 'Payor Organization/CONF-INS' }],
      subject: [{ reference: 'Site/SITE001' }],
    });
    const again: J = (
      await sb.contract('POST', paths.contract, {
        ...payorBody('Organization/CONF-INS'),
        authority: [{ reference: 'Organization/CONF-INS', display: 'Renamed' }],
      })
    ).json;
    expect([again.id, again.authority[0].display]).toEqual(['CT-1001', 'Renamed']);
    expect(ids((await get(paths.sitePayors('SITE001'))).json)).toContain('CT-1001');
    const del = await sb.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), {
        payorId: 'Organization/CONF-INS',
        payorType: 'I',
        providerGroup: 'CT-1001',
      }),
    );
    expect(del.status).toBe(200);
    expect(del.json).toEqual({
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'information',
          code: 'informational',
          details: { coding: [{ system: `${REF_URL}/error-code`, code: 'MSG_DELETED_ID', display: 'Deleted' }] },
          diagnostics: expect.any(String),
          location: ['CONTRACTS'],
          expression: [],
        },
      ],
    });
    expect(ids((await get(paths.sitePayors('SITE001'))).json)).not.toContain('CT-1001');
    const twice = await sb.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), {
        payorId: 'Organization/CONF-INS',
        payorType: 'I',
        providerGroup: 'CT-1001',
      }),
    );
    expect([twice.status, errorCode(twice.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
  });

  test('update by id changes the payor of that contract', async () => {
    const c: J = (await sb.contract('POST', paths.contract, payorBody('Organization/CONF-A'))).json;
    const updated: J = (await sb.contract('POST', paths.contract, { ...payorBody('Organization/CONF-B'), id: c.id }))
      .json;
    expect([updated.id, authorityOf(updated)]).toEqual([c.id, 'Organization/CONF-B']);
    const unknown = await sb.contract('POST', paths.contract, { ...payorBody('Organization/CONF-B'), id: 'CT-9999' });
    expect([unknown.status, errorCode(unknown.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
    const wrongKind = await sb.contract('POST', paths.contract, { ...payorBody('Person/CONF-P'), id: c.id });
    expect([wrongKind.status, errorCode(wrongKind.json)]).toEqual([422, 'MSG_PARAM_INVALID']);
  });

  test('a contact as payor: Person authority, sub type code C; deleted with payorType C and the example names payerId/payerType', async () => {
    const c: J = (await sb.contract('POST', paths.contract, payorBody('Person/CONF-CONTACT'))).json;
    expect([authorityOf(c), c.subType[0].coding[0].code]).toEqual(['Person/CONF-CONTACT', 'C']);
    const asInsurer = await sb.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), { payorId: 'Person/CONF-CONTACT', payorType: 'I', providerGroup: c.id }),
    );
    expect(asInsurer.status).toBe(400);
    const del = await sb.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), { payerId: 'Person/CONF-CONTACT', payerType: 'C', providerGroup: c.id }),
    );
    expect([del.status, errorCode(del.json)]).toEqual([200, 'MSG_DELETED_ID']);
  });

  test.each([
    ['malformed JSON', '{"resourceType":', 400, 'MSG_CANT_PARSE_CONTENT'],
    [
      'no subject',
      { resourceType: 'Contract', authority: [{ reference: 'Organization/X' }] },
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ],
    [
      'no authority',
      { resourceType: 'Contract', subject: [{ reference: 'Site/SITE001' }] },
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ],
    ['another authority kind', payorBody('Practitioner/PR-0001'), 400, 'MSG_INVALID_FORMAT'],
  ] as [string, unknown, number, string][])('upsert with %s: %i %s', async (_label, body, status, code) => {
    const a = await sb.contract('POST', paths.contract, body);
    expect([a.status, errorCode(a.json)]).toEqual([status, code]);
  });

  test('delete: missing parameters are 400; a wrong providerGroup is 404', async () => {
    for (const q of [
      { payorType: 'I', providerGroup: 'CT-0003' },
      { payorId: 'Organization/bup', providerGroup: 'CT-0003' },
      { payorId: 'Organization/bup', payorType: 'I' },
      { payorId: 'Organization/bup', payorType: 'X', providerGroup: 'CT-0003' },
    ] as Record<string, string>[]) {
      const a = await sb.contract('DELETE', withQuery(paths.contractSite('SITE001'), q));
      expect(a.status, JSON.stringify(q)).toBe(400);
    }
    const wrong = await sb.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), {
        payorId: 'Organization/bup',
        payorType: 'I',
        providerGroup: 'CT-0004',
      }),
    );
    expect(wrong.status).toBe(404);
  });
});

describe('Set contract service, service with procedure, price (4.5; DEC-D3-15)', () => {
  test('a new service of bup goes to the bup fee schedule, which is answered', async () => {
    const a = await sb.contract('POST', paths.contractPrice, priceBody('I-bup', [svc('CONF-SVC')]));
    expect(a.status).toBe(200);
    const c: J = a.json;
    expect([c.id, subTypeOf(c), authorityOf(c)]).toEqual(['PC-0001', 'FEE_SCHEDULE', 'Organization/bup']);
    expect(pricesOf(c)).toContain('S:CONF-SVC');
  });

  test('the contract that holds the service is the one updated: practitioner bespoke, self-pay', async () => {
    const bespoke: J = (
      await sb.contract(
        'POST',
        paths.contractPrice,
        priceBody('I-bup', [svc('CONS', 190)], { practitioner: 'PR-0001' }),
      )
    ).json;
    expect([bespoke.id, subTypeOf(bespoke), bespoke.subject.map((x: J) => x.reference)]).toEqual([
      'PC-0002',
      'PRACTITIONER_BESPOKE_CONTRACT',
      ['Site/SITE001', 'Practitioner/PR-0001'],
    ]);
    expect(pricesOf(bespoke)).toContain('S:CONS=190');
    const selfPay: J = (await sb.contract('POST', paths.contractPrice, priceBody('I-slf', [svc('PHYSIO', 85)]))).json;
    expect([selfPay.id, subTypeOf(selfPay), selfPay.authority]).toEqual(['PC-0003', 'SELF_PAY', undefined]);
    expect(pricesOf(selfPay)).toContain('S:PHYSIO=85');
  });

  test('a payor without price contract gets a new fee schedule', async () => {
    await sb.contract('POST', paths.contract, payorBody('Organization/CONF-INS'));
    const c: J = (await sb.contract('POST', paths.contractPrice, priceBody('I-CONF-INS', [svc('CONF-SVC')]))).json;
    expect([c.id, subTypeOf(c), authorityOf(c), c.subject]).toEqual([
      'PC-1001',
      'FEE_SCHEDULE',
      'Organization/CONF-INS',
      [{ reference: 'Site/SITE001' }],
    ]);
  });

  test('service with procedure, then price; effective prices show the fee', async () => {
    const withProcedure: J = (
      await sb.contract('POST', paths.contractPrice, priceBody('I-bup', [svc('CONF-SVC'), proc('CONF-PROC')]))
    ).json;
    expect(pricesOf(withProcedure)).toContain('S:CONF-SVC P:CONF-PROC');
    const priced: J = (
      await sb.contract('POST', paths.contractPrice, priceBody('I-bup', [svc('CONF-SVC'), proc('CONF-PROC', 321.5)]))
    ).json;
    expect(priced.id).toBe(withProcedure.id);
    expect(pricesOf(priced)).toContain('S:CONF-SVC P:CONF-PROC=321.5');
    const prices: J = (await get(paths.effectivePrices, { site: 'SITE001', payor: 'bup', 'service-code': 'CONF-SVC' }))
      .json;
    expect(prices.entry.map((e: J) => pricesOf(e.resource))).toEqual([['S:CONF-SVC P:CONF-PROC=321.5']]);
  });

  test('a separate fee item prices the procedure; a service-only fee prices the service', async () => {
    const body = priceBody('I-bup', [svc('CONF-SVC'), proc('CONF-PROC')]);
    (body.term[0].asset[0].valuedItem as J[]).push({ net: { value: 77 } });
    expect(pricesOf((await sb.contract('POST', paths.contractPrice, body)).json)).toContain(
      'S:CONF-SVC P:CONF-PROC=77',
    );
    expect(
      pricesOf((await sb.contract('POST', paths.contractPrice, priceBody('I-bup', [svc('CONF-ONLY', 12)]))).json),
    ).toContain('S:CONF-ONLY=12');
  });

  test('a procedure without its service code is 400 MSG_MISSING_MANDATORY_PARAM (with or without fee)', async () => {
    for (const items of [[proc('CONF-PROC')], [proc('CONF-PROC', 10)]]) {
      const a = await sb.contract('POST', paths.contractPrice, priceBody('I-bup', items));
      expect([a.status, errorCode(a.json)]).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    }
  });

  test.each([
    ['malformed JSON', '{', 400, 'MSG_CANT_PARSE_CONTENT'],
    ['no site subject', { ...priceBody('I-bup', [svc('X')]), subject: [] }, 400, 'MSG_MISSING_MANDATORY_PARAM'],
    [
      'no asset',
      { resourceType: 'Contract', subject: [{ reference: 'Site/SITE001' }] },
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ],
    [
      'no payor context',
      {
        ...priceBody('I-bup', [svc('X')]),
        term: [{ asset: [{ valuedItem: [{ entityCodeableConcept: { coding: [{ system: 'ISC', code: 'X' }] } }] }] }],
      },
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    ],
    ['an unknown code system', priceBody('I-bup', [{ system: 'SNOMED', code: 'X' }]), 400, 'MSG_INVALID_FORMAT'],
    ['a negative fee', priceBody('I-bup', [svc('X', -1)]), 400, 'MSG_INVALID_FORMAT'],
    ['a payor the site does not have', priceBody('I-zzz', [svc('X')]), 422, 'MSG_REFERENCE_ID_NOT_FOUND'],
  ] as [string, unknown, number, string][])('%s: %i %s', async (_label, body, status, code) => {
    const a = await sb.contract('POST', paths.contractPrice, body);
    expect([a.status, errorCode(a.json)]).toEqual([status, code]);
  });
});

describe('Delete contract service, and service with procedure (4.5)', () => {
  test('delete the procedure only, then the service; each answers MSG_DELETED_ID; again 404', async () => {
    await sb.contract('POST', paths.contractPrice, priceBody('I-bup', [svc('CONF-SVC'), proc('CONF-PROC', 5)]));
    const delProc = await sb.contract(
      'DELETE',
      withQuery(paths.contractPriceSite('SITE001'), {
        indStdCode: 'CONF-SVC',
        indStdCodeScheme: 'ISC',
        procedureCode: 'CONF-PROC',
        procedureScheme: 'CCSD',
      }),
    );
    expect([delProc.status, errorCode(delProc.json), (delProc.json as J).issue[0].severity]).toEqual([
      200,
      'MSG_DELETED_ID',
      'information',
    ]);
    const after: J = (await get(paths.effectivePrices, { site: 'SITE001', 'service-code': 'CONF-SVC' })).json;
    expect(after.entry.map((e: J) => pricesOf(e.resource))).toEqual([['S:CONF-SVC']]);
    const delSvc = await sb.contract(
      'DELETE',
      withQuery(paths.contractPriceSite('SITE001'), { indStdCode: 'CONF-SVC', indStdCodeScheme: 'ISC' }),
    );
    expect([delSvc.status, errorCode(delSvc.json)]).toEqual([200, 'MSG_DELETED_ID']);
    expect(((await get(paths.effectivePrices, { site: 'SITE001', 'service-code': 'CONF-SVC' })).json as J).total).toBe(
      0,
    );
    const again = await sb.contract(
      'DELETE',
      withQuery(paths.contractPriceSite('SITE001'), { indStdCode: 'CONF-SVC', indStdCodeScheme: 'ISC' }),
    );
    expect([again.status, errorCode(again.json)]).toEqual([404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE']);
  });

  test('missing indStdCode or indStdCodeScheme is 400; procedureCode without procedureScheme 400', async () => {
    for (const q of [
      { indStdCodeScheme: 'ISC' },
      { indStdCode: 'CONS' },
      { indStdCode: 'THEATRE', indStdCodeScheme: 'ISC', procedureCode: 'W3712' },
    ] as Record<string, string>[]) {
      const a = await sb.contract('DELETE', withQuery(paths.contractPriceSite('SITE001'), q));
      expect([a.status, errorCode(a.json)], JSON.stringify(q)).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    }
  });
});

describe('Effective prices (4.5; DEC-D3-15)', () => {
  test('SITE001 and bup: the fee schedule and the bespoke contract', async () => {
    const a = await get(paths.effectivePrices, { site: 'SITE001', payor: 'bup' });
    expect(a.status).toBe(200);
    const b: J = a.json;
    expect(b).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 2 });
    expect(tags(b)).toEqual({ page: '1', count: '10', maxCount: '2' });
    expect(b.entry.map((e: J) => [e.resource.id, subTypeOf(e.resource)])).toEqual([
      ['PC-0001', 'FEE_SCHEDULE'],
      ['PC-0002', 'PRACTITIONER_BESPOKE_CONTRACT'],
    ]);
    const fee = b.entry[0].resource;
    expect(pricesOf(fee)).toEqual([
      'S:CONS=150',
      'S:FUCONS=100',
      'S:THEATRE P:W3712=9500 P:W3811=10500',
      'S:ENDO P:H2002=1200 P:G4500=900',
    ]);
    expect(fee.term[0].asset[0]).toMatchObject({
      type: { coding: [{ code: 'PriceGroupAssignment' }] },
      extension: [{ url: `${sb.url}/contracts/contract/extension/isESTV`, valueString: 'N' }],
      context: [
        { reference: { reference: 'I/bup' }, display: 'Bupa' },
        { reference: { reference: 'Payor/I-bup' }, display: 'Bupa' },
      ],
    });
    expect(b.entry[1].resource.term[0].asset[0].context[2]).toEqual({
      reference: { reference: 'Location/LOC-002' },
      display: 'Harley Street Clinic',
    });
  });

  test('authority only on fee schedule and bespoke, the site as subject of each, a practitioner only on bespoke and self-pay; every procedure with its service', async () => {
    const b: J = (await get(paths.effectivePrices, { site: 'SITE001' })).json;
    expect(b.total).toBe(4);
    for (const e of b.entry) {
      const c = e.resource;
      const sub = subTypeOf(c);
      expect(c.authority !== undefined, c.id).toBe(sub === 'FEE_SCHEDULE' || sub === 'PRACTITIONER_BESPOKE_CONTRACT');
      expect(c.subject[0], c.id).toEqual({ reference: 'Site/SITE001' });
      const practitioner = c.subject.some((x: J) => String(x.reference).startsWith('Practitioner/'));
      if (practitioner) expect(sub === 'PRACTITIONER_BESPOKE_CONTRACT' || sub === 'SELF_PAY', c.id).toBe(true);
      for (const asset of c.term[0].asset) {
        const systems = asset.valuedItem.map((v: J) => v.entityCodeableConcept.coding[0].system);
        expect(systems[0]).toBe('ISC');
        expect(systems.slice(1).every((s: string) => s === PROCEDURE)).toBe(true);
      }
    }
  });

  test('filters: several payors, location, service code, _since; paging', async () => {
    const idsOf = async (q: Record<string, string>) =>
      ids((await get(paths.effectivePrices, { site: 'SITE001', ...q })).json);
    expect(await idsOf({ payor: 'slf,na' })).toEqual(['PC-0003', 'PC-0004']);
    expect(await idsOf({ payor: 'bup', location: 'LOC-001' })).toEqual(['PC-0001']);
    expect(await idsOf({ payor: 'bup', location: 'LOC-002' })).toEqual(['PC-0001', 'PC-0002']);
    expect(await idsOf({ 'service-code': 'PHYSIO' })).toEqual(['PC-0003']);
    expect(await idsOf({ _since: '2025-10-01T00:00:00Z' })).toEqual(['PC-0002', 'PC-0003']);
    expect(await idsOf({ page: '2', count: '3' })).toEqual(['PC-0004']);
    expect(await idsOf({ payor: 'zzz' })).toEqual([]);
    expect(ids((await get(paths.effectivePrices, { site: 'SITE002' })).json)).toEqual(['PC-0005']);
    const theatre: J = (await get(paths.effectivePrices, { site: 'SITE001', 'service-code': 'THEATRE' })).json;
    for (const e of theatre.entry)
      expect(pricesOf(e.resource).every((p: string) => p.startsWith('S:THEATRE'))).toBe(true);
    const bad = await get(paths.effectivePrices, { _since: 'yesterday' });
    expect([bad.status, errorCode(bad.json)]).toEqual([400, 'MSG_INVALID_FORMAT']);
  });

  test('deleting a payor removes its price contracts', async () => {
    await sb.contract(
      'DELETE',
      withQuery(paths.contractSite('SITE001'), {
        payorId: 'Organization/na',
        payorType: 'I',
        providerGroup: 'CT-0002',
      }),
    );
    expect(ids((await get(paths.effectivePrices, { site: 'SITE001' })).json)).toEqual([
      'PC-0001',
      'PC-0002',
      'PC-0003',
    ]);
  });
});
