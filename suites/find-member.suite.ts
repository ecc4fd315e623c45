/**
 * Find Member, versions 1 and 2 (Document 1, 4.1, 4.2, 7, 9): outcomes of the two-step flow,
 * documented errors, insurer lists per version, required fields and headers.
 */
import type { OperationId } from '../spec/operations.ts';
import { on } from '../core/suite.ts';
import { FIXTURE_CONFIGURED } from '../core/decidedOutcomes.ts';
import {
  coverageExtensionUrls,
  coverageMatchesSearch,
  organizationTelecomCardinality,
  coverageReferencesResolve,
  documentedCodeHasItsStatus,
  entriesMatchFilter,
  errorStatusAndCode,
  extensionCardinality,
  matchesSchema,
  membersPresent,
  outcomeHasDiagnostics,
  outcomeIssuesHave,
  outcomeIssuesHaveWhenPresent,
  requestRefused,
} from '../checks/index.ts';
import { hasResponse, isRecord } from '../core/exchange.ts';
import type { MemberSearch } from '../core/config.ts';
import { judge } from '../core/property.ts';
import { call, describeOperation, runContext, type CallOptions } from '../core/suite.ts';
import { FIND_MEMBER_V1_INSURERS, operation } from '../spec/operations.ts';
import { validRequest } from '../generators/requestArbitrary.ts';
import { describeDerivedRequests, fixturesFrom } from './common/derivedRequests.ts';
import { extension } from './common/readers.ts';
import { verifyError, verifyHeadersEnforced, verifySuccess } from './common/steps.ts';

/** Form fields of a configured member search (without the step-2 refinements unless asked). */
function fields(search: MemberSearch, refined = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(search)) if (typeof v === 'string') out[k] = v;
  return refined ? { ...out, ...search.refine } : out;
}

/** The values of configured member searches, by field (the refinements included). */
const memberFixtures = (...searches: (MemberSearch | undefined)[]) =>
  fixturesFrom(...searches.flatMap((m) => (m ? [m, m.refine ?? {}] : [])));

function fixtureMissing(operationId: OperationId, name: string, requirements: string[]): void {
  on(operationId)
    .must(...requirements)
    .decided(FIXTURE_CONFIGURED, 'skip', `No fixture ${name} in the config: this step needs known data on the target`);
}

const coverageReqs = [
  'D1-2.2-01',
  'D1-2.2-02',
  'D1-2.2-03',
  'D1-2.2-06',
  'D1-2.2-07',
  'D1-2.2-08',
  'D1-2.2-11',
  'D1-2.2-12',
  'D1-2.2-13',
  'D1-2.2-14',
  'D1-2.2-15',
  'D1-2.2-16',
  'D1-2.2-17',
  'D1-2.2-18',
  'D1-2.2-19',
  'D1-2.2-20',
  'D1-2.2-22',
];
const outcomeShapeReqs = ['D1-2.3-01', 'D1-2.3-03', 'D1-2.3-04'];

/** 2.2: the Coverage extensions with a cardinality of 1-1 or 0-1. */
const COVERAGE_CARDINALITY = {
  exactlyOne: ['policyExpired'],
  atMostOne: [
    'groupId',
    'expiryDate',
    'coverType',
    'benefitLimit',
    'benefitUsed',
    'benefitUsedAsOf',
    'memberExcess',
    'memberExcessType',
    'excessUsed',
    'excessUsedAsOf',
    'memberCoPayment',
    'memberCoPaymentType',
    'currency',
  ],
};

/**
 * DEC-D1-61: with both extensions present, valueMoney pairs with `Monetary value` and valueDecimal with
 * `Percentage`; undefined otherwise.
 */
function coPaymentTypeAgrees(coverage: Record<string, unknown>): boolean | undefined {
  const amount = extension(coverage, 'memberCoPayment');
  const type = extension(coverage, 'memberCoPaymentType')?.valueString;
  if (!amount || typeof type !== 'string') return undefined;
  if (isRecord(amount.valueMoney)) return type.toLowerCase() === 'monetary value';
  if (amount.valueDecimal !== undefined) return type.toLowerCase() === 'percentage';
  return undefined;
}

/** The issue values of 2.3 (DEC-D1-46), judged on a documented Find Member error answer. */
function verifyOutcomeValues(x: Awaited<ReturnType<typeof call>>, id: OperationId): void {
  if (!hasResponse(x) || x.response.status < 400 || x.response.status >= 500) return;
  const op = on(id);
  op.must('D1-2.3-02')
    .under('DEC-D1-46')
    .check(x, outcomeIssuesHave({ severity: 'error', code: 'exception' }));
  // The parenthesised values are fixed where the members are present; their presence is SHOULD.
  op.must('D1-2.3-02')
    .under('DEC-D1-46')
    .check(x, outcomeIssuesHaveWhenPresent({ location: ['Coverage'], expression: [] }));
  const coding = ['issue[].details.coding[].system', 'issue[].details.coding[].display'];
  op.should('D1-2.3-05').under('DEC-D1-46').check(x, membersPresent(coding));
  op.should('D1-2.3-06')
    .under('DEC-D1-46')
    .check(x, membersPresent(['issue[].location']));
}

/**
 * An insurer outside the version's list (DEC-D1-19): refused (4xx), with a documented 4xx code of
 * the Find Member table at its documented status; which code is not tied to the trigger, so
 * `MSG_PARAM_INVALID` (422) is recorded only.
 */
function verifyUnsupportedInsurer(x: Awaited<ReturnType<typeof call>>, id: OperationId, requirements: string[]): void {
  const documented4xx = operation(id).errors.filter((e) => e.status >= 400 && e.status < 500);
  on(id)
    .must(...requirements)
    .under('DEC-D1-19')
    .check(x, requestRefused);
  on(id)
    .must(...requirements, 'D1-7-16')
    .under('DEC-D1-19')
    .check(x, errorStatusAndCode(documented4xx));
  on(id)
    .must('D1-7-16')
    .check(x, documentedCodeHasItsStatus(operation(id).errors));
  on(id)
    .info('D1-7-04')
    .under('DEC-D1-19')
    .check(x, errorStatusAndCode(documented4xx.filter((e) => e.code === 'MSG_PARAM_INVALID')));
}

/** The form Content-Type is listed but a request without it is never said to be refused (DEC-D1-73): recorded only. */
async function recordWithoutFormContentType(id: OperationId, base: CallOptions): Promise<void> {
  const x = await call(id, { ...base, omitHeaders: ['Content-Type'] });
  on(id).info('D1-4-02').under('DEC-D1-73').check(x, requestRefused, { omittedHeader: 'Content-Type' });
}

function verifyCoverage(
  id: OperationId,
  x: Awaited<ReturnType<typeof call>>,
  search: MemberSearch,
  requirements: string[],
): void {
  const served = verifySuccess(
    x,
    id,
    { success: requirements, schema: coverageReqs },
    { decisions: ['DEC-D1-03', 'DEC-D1-05', 'DEC-D1-06'] },
  );
  // The URL forms are judged even when another part of the schema failed: a moved URL is its own finding.
  if (hasResponse(x) && x.response.status >= 200 && x.response.status < 300)
    on(id).must('D1-2.2-07').check(x, coverageExtensionUrls);
  if (!served) return;
  on(id).must('D1-2.2-04', 'D1-2.2-05').check(x, coverageReferencesResolve);
  on(id).must('D1-2.2-12').check(x, organizationTelecomCardinality);
  on(id).must('D1-2.2-23').check(x, extensionCardinality(COVERAGE_CARDINALITY));
  on(id)
    .must('D1-2.2-23')
    .check(x, extensionCardinality({ atMostOne: ['genderIdentity', 'otherInitials'], containedType: 'Patient' }));
  on(id)
    .should('D1-2.2-21')
    .under('DEC-D1-61')
    .check(
      x,
      entriesMatchFilter(
        'memberCoPayment valueMoney goes with Monetary value and valueDecimal with Percentage',
        coPaymentTypeAgrees,
      ),
    );
  // The answer is the searched member's Coverage (1): by name and birth date, and by member number.
  const { firstInitial, lastName, dateOfBirth, membershipNumber } = search as Record<string, string | undefined>;
  if (lastName || firstInitial || dateOfBirth || membershipNumber) {
    on(id)
      .must(...requirements)
      .check(x, coverageMatchesSearch({ firstInitial, lastName, dateOfBirth, membershipNumber }));
  }
}

/**
 * The fixtures each step needs, declared on its test (core/suite.ts `op.test(name, needs, fn)`):
 * without one the test records one `fixture-configured` skip citing its rows; a member the target
 * answers it does not know (NO_MATCH_FOUND to a search expected to match) is a `fixture-held` skip
 * naming the fixture (suites/common/steps.ts), never a MUST failure of the server.
 */
const single = (version: 'findMemberV1' | 'findMemberV2', ...cites: string[]) =>
  ({ fixtures: [`${version}.single`], cites }) as const;

describeOperation('find-member-v2', (op) => {
  const id = 'find-member-v2';

  op.test('step 1: a single match returns a Coverage', single('findMemberV2', 'D1-4.2-07'), async ([s]) => {
    verifyCoverage(id, await call(id, { form: fields(s) }), s, ['D1-4.2-07', 'D1-1-01']);
  });

  const none = { fixtures: ['findMemberV2.none'], cites: ['D1-4.2-08'] } as const;
  op.test('step 1: no match returns NO_MATCH_FOUND', none, async ([s]) => {
    const x = await call(id, { form: fields(s) });
    verifyError(x, id, 'NO_MATCH_FOUND', ['D1-4.2-08', 'D1-7-01', 'D1-7-16'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
    });
    verifyOutcomeValues(x, id);
  });

  const multiple = { fixtures: ['findMemberV2.multipleResolvedByRefine'], cites: ['D1-4.2-09'] } as const;
  op.test('step 1: several matches return MULTIPLE_MATCH_FOUND asking to refine', multiple, async ([s]) => {
    const x = await call(id, { form: fields(s) });
    verifyError(x, id, 'MULTIPLE_MATCH_FOUND', ['D1-4.2-09', 'D1-7-02', 'D1-7-16'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
    });
    on(id).must('D1-4.2-09', 'D1-2.3-04').under('DEC-D1-34').check(x, outcomeHasDiagnostics);
  });

  const resolved = (...cites: string[]) => ({ fixtures: ['findMemberV2.multipleResolvedByRefine'], cites }) as const;
  op.test('step 2: the optional fields resolve several matches to one Coverage', resolved('D1-4.2-10'), async ([s]) => {
    if (!s.refine) return fixtureMissing(id, 'findMemberV2.multipleResolvedByRefine.refine', ['D1-4.2-10']);
    verifyCoverage(id, await call(id, { form: fields(s, true) }), s, ['D1-4.2-10', 'D1-4.2-05']);
  });

  const after = { fixtures: ['findMemberV2.multipleAfterRefine'], cites: ['D1-4.2-12'] } as const;
  op.test(
    'step 2: still several matches return MULTIPLE_MATCH_FOUND advising to contact the insurer',
    after,
    async ([s]) => {
      if (!s.refine) return fixtureMissing(id, 'findMemberV2.multipleAfterRefine.refine', ['D1-4.2-12']);
      const x = await call(id, { form: fields(s, true) });
      verifyError(x, id, 'MULTIPLE_MATCH_FOUND', ['D1-4.2-12', 'D1-7-02', 'D1-7-16'], {
        shapeLevel: 'MUST',
        shapeRequirements: outcomeShapeReqs,
      });
      on(id).must('D1-4.2-12').under('DEC-D1-34').check(x, outcomeHasDiagnostics);
    },
  );

  op.test('step 2: no match returns NO_MATCH_FOUND', resolved('D1-4.2-11'), async ([s]) => {
    if (!s.refine) return fixtureMissing(id, 'findMemberV2.multipleResolvedByRefine.refine', ['D1-4.2-11']);
    const x = await call(id, { form: { ...fields(s, true), postCode: 'ZZ99 9ZZ' } });
    verifyError(x, id, 'NO_MATCH_FOUND', ['D1-4.2-11', 'D1-7-01'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
    });
  });

  // DEC-D1-77: "Date (`YYYY-MM-DD`) on which the policy must be active"; the inactive date is the config's.
  const inactive = {
    fixtures: ['findMemberV2.single', 'findMemberV2.policyInactiveOn'],
    cites: ['D1-4.2-11'],
  } as const;
  op.test('step 2: a policyActiveOn the policy is not active on finds no member', inactive, async ([s, date]) => {
    const x = await call(id, { form: { ...fields(s), policyActiveOn: date } });
    verifyError(x, id, 'NO_MATCH_FOUND', ['D1-4.2-11', 'D1-7-01'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
      decisions: ['DEC-D1-77'],
    });
  });

  op.test(
    'each required field, missing or empty, is refused as documented',
    single('findMemberV2', 'D1-4.2-03'),
    async ([s]) => {
      for (const p of operation(id).parameters.filter((pp) => pp.required)) {
        const missing = await call(id, { form: { ...fields(s), [p.name]: undefined } });
        verifyError(missing, id, 'MSG_MISSING_MANDATORY_PARAM', ['D1-4.2-03', 'D1-7-03'], {
          shapeLevel: 'MUST',
          shapeRequirements: outcomeShapeReqs,
        });
        const empty = await call(id, { form: { ...fields(s), [p.name]: '' } });
        verifyError(empty, id, ['MSG_MISSING_MANDATORY_PARAM', 'MSG_PARAM_INVALID'], ['D1-4.2-04'], {
          decisions: ['DEC-D1-17'],
        });
      }
    },
  );

  op.test(
    'a malformed date and an insurer of version 1 only are refused',
    single('findMemberV2', 'D1-4.2-06'),
    async ([s]) => {
      // Both dates of 4.2 are YYYY-MM-DD: each malformed one is refused.
      for (const name of ['dateOfBirth', 'policyActiveOn']) {
        const badDate = await call(id, { form: { ...fields(s), [name]: '12/04/1980' } });
        verifyError(badDate, id, ['MSG_PARAM_INVALID', 'MSG_CANT_PARSE_CONTENT'], ['D1-4.2-06', 'D1-7-04'], {
          decisions: ['DEC-D1-58'],
        });
      }
      const v1Insurer = await call(id, { form: { ...fields(s), insurerIdentifier: 'bup' } });
      verifyUnsupportedInsurer(v1Insurer, id, ['D1-4.2-02', 'D1-9-01']);
    },
  );

  op.test('a body that is not form-encoded is not served', single('findMemberV2', 'D1-7-05'), async ([s]) => {
    const x = await call(id, { body: JSON.stringify(fields(s)) });
    on(id).must('D1-7-05', 'D1-4-02').under('DEC-D1-59').check(x, requestRefused);
    on(id)
      .info('D1-7-05', 'D1-7-16')
      .under('DEC-D1-59')
      .check(x, errorStatusAndCode(operation(id).errors));
  });

  op.test(
    'required headers are enforced and the version must be exact',
    single('findMemberV2', 'D1-5-02'),
    async ([s]) => {
      await verifyHeadersEnforced(
        id,
        { form: fields(s) },
        (h) =>
          h === 'SU-SiteId'
            ? ['D1-5-02', 'D1-1-08', 'D1-4.2-01']
            : h === 'SVC-API-Version'
              ? ['D1-9-02', 'D1-4.2-01']
              : h === 'Authorization'
                ? ['D1-5-01', 'D1-4.2-01']
                : ['D1-4-02', 'D1-4.2-01'],
        ['DEC-D1-20', 'DEC-D1-21'],
      );
      await recordWithoutFormContentType(id, { form: fields(s) });
      const unknownVersion = await call(id, { form: fields(s), headers: { 'SVC-API-Version': '3' } });
      on(id).must('D1-9-02').under('DEC-D1-20').check(unknownVersion, requestRefused);
    },
  );

  const property = single('findMemberV2', 'D1-4.2-07');
  op.test('property: every well-formed search gets one of the three documented outcomes', property, async ([s]) => {
    const outcomes = errorStatusAndCode([
      { status: 400, code: 'NO_MATCH_FOUND' },
      { status: 400, code: 'MULTIPLE_MATCH_FOUND' },
    ]);
    await on(id)
      .must('D1-4.2-07', 'D1-4.2-08', 'D1-4.2-09', 'D1-7-16')
      .property({
        // Searches: no case changes what another is answered (sent ahead, judged in order).
        independent: true,
        // Every required field of its documented form; the configured member's values mixed in.
        arbitrary: validRequest(operation(id), { fixtures: memberFixtures(s), optional: [] }).map((r) => r.form),
        exercise: async (form) => {
          const x = await call(id, { form });
          const ok = x.response !== undefined && x.response.status >= 200 && x.response.status < 300;
          return [judge(x, ok ? matchesSchema('coverage.schema.json') : outcomes)];
        },
      });
  });
});

describeOperation('find-member-v1', (op) => {
  const id = 'find-member-v1';

  op.test(
    'version 1 stays functional: a single match returns a Coverage',
    single('findMemberV1', 'D1-4.1-12'),
    async ([s]) => {
      verifyCoverage(id, await call(id, { form: fields(s) }), s, ['D1-4.1-12', 'D1-4.1-03', 'D1-1-01']);
    },
  );

  const none = { fixtures: ['findMemberV1.none'], cites: ['D1-4.1-13'] } as const;
  op.test('no match returns NO_MATCH_FOUND', none, async ([s]) => {
    const x = await call(id, { form: fields(s) });
    verifyError(x, id, 'NO_MATCH_FOUND', ['D1-4.1-13', 'D1-7-01', 'D1-7-16'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
    });
    verifyOutcomeValues(x, id);
  });

  // DEC-D1-77: "Date (`YYYY-MM-DD`) on which the policy must be active"; the inactive date is the config's.
  const inactive = {
    fixtures: ['findMemberV1.single', 'findMemberV1.policyInactiveOn'],
    cites: ['D1-4.1-13'],
  } as const;
  op.test('a policyActiveOn the policy is not active on finds no member', inactive, async ([s, date]) => {
    const x = await call(id, { form: { ...fields(s), policyActiveOn: date } });
    verifyError(x, id, 'NO_MATCH_FOUND', ['D1-4.1-13', 'D1-7-01'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
      decisions: ['DEC-D1-77'],
    });
  });

  const multiple = { fixtures: ['findMemberV1.multiple'], cites: ['D1-4.1-14'] } as const;
  op.test('several matches return MULTIPLE_MATCH_FOUND', multiple, async ([s]) => {
    const x = await call(id, { form: fields(s) });
    verifyError(x, id, 'MULTIPLE_MATCH_FOUND', ['D1-4.1-14', 'D1-7-02', 'D1-7-16'], {
      shapeLevel: 'MUST',
      shapeRequirements: outcomeShapeReqs,
    });
  });

  op.test(
    'insurerIdentifier is required and limited to the version-1 list',
    single('findMemberV1', 'D1-4.1-06'),
    async ([s]) => {
      const missing = await call(id, { form: { ...fields(s), insurerIdentifier: undefined } });
      verifyError(missing, id, 'MSG_MISSING_MANDATORY_PARAM', ['D1-4.1-06', 'D1-7-03'], {
        shapeLevel: 'MUST',
        shapeRequirements: outcomeShapeReqs,
        decisions: ['DEC-D1-18'],
      });
      const v2Only = await call(id, { form: { ...fields(s), insurerIdentifier: 'cin' } });
      verifyUnsupportedInsurer(v2Only, id, ['D1-4.1-07', 'D1-9-01']);
      // Both dates of 4.1 are YYYY-MM-DD: each malformed one is refused.
      for (const name of ['dateOfBirth', 'policyActiveOn']) {
        const badDate = await call(id, { form: { ...fields(s), [name]: '12/04/1980' } });
        verifyError(badDate, id, ['MSG_PARAM_INVALID', 'MSG_CANT_PARSE_CONTENT'], ['D1-4.1-09', 'D1-7-04'], {
          decisions: ['DEC-D1-58'],
        });
      }
    },
  );

  // The member of `single` sent with `cin` matches no `cin` member, so a server serving `cin` on
  // version 1 answers NO_MATCH_FOUND, which passes (DEC-D1-19): only a member the insurer holds,
  // named by every field version 1 takes, tells a server that serves the insurer.
  op.test(
    'a member of an insurer only version 2 serves is refused',
    { fixtures: ['findMemberV1.otherVersionInsurer'], cites: ['D1-4.1-07'] },
    async ([s]) => {
      if ((FIND_MEMBER_V1_INSURERS as readonly string[]).includes(s.insurerIdentifier))
        return on(id)
          .must('D1-4.1-07')
          .decided(
            FIXTURE_CONFIGURED,
            'skip',
            `fixtures.findMemberV1.otherVersionInsurer names ${s.insurerIdentifier}, an insurer version 1 serves`,
          );
      verifyUnsupportedInsurer(await call(id, { form: fields(s) }), id, ['D1-4.1-07', 'D1-9-01']);
    },
  );

  op.test('required headers are enforced', single('findMemberV1', 'D1-5-02'), async ([s]) => {
    await verifyHeadersEnforced(
      id,
      { form: fields(s) },
      (h) =>
        h === 'SU-SiteId'
          ? ['D1-5-02', 'D1-1-08', 'D1-4.1-02']
          : h === 'SVC-API-Version'
            ? ['D1-9-02', 'D1-4.1-02']
            : h === 'Authorization'
              ? ['D1-5-01', 'D1-4.1-02']
              : ['D1-4-02', 'D1-4.1-02'],
      ['DEC-D1-20', 'DEC-D1-21'],
    );
    await recordWithoutFormContentType(id, { form: fields(s) });
  });
});

describeDerivedRequests({
  'find-member-v2': async () => {
    const f = runContext().fixtures.findMemberV2 ?? {};
    return { fixtures: memberFixtures(f.single, f.none, f.multipleResolvedByRefine, f.multipleAfterRefine) };
  },
  'find-member-v1': async () => {
    const f = runContext().fixtures.findMemberV1 ?? {};
    return { fixtures: memberFixtures(f.single, f.multiple, f.none) };
  },
});
