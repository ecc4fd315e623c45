import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Check } from '../core/check.ts';
import { operation } from '../spec/operations.ts';
import * as checks from './index.ts';
import { CHECK_REGISTRY, HELPER_EXPORTS } from './registry.ts';

/** Sample arguments to call each factory once (ids must not depend on them). */
const factoryArgs: Record<string, unknown[]> = {
  invalidRequestAnswered: [{ refusal: 'any-4xx', errors: [], mayServe: false, basis: [] }],
  validRequestServed: [{}],
  acknowledgedBatchGone: ['b1'],
  answerRecorded: [{ success: 200, refusals: [{ status: 400, code: 'MSG_INVALID_FORMAT' }] }],
  agreesWithOpenApi: ['request'],
  batchBelongsToSite: ['SITE1'],
  bundleHasEntries: [],
  bundleTypeIs: ['searchset'],
  clientBodyMatchesSchema: ['patient-create-request.schema.json'],
  clientSendsHeader: [{ name: 'SU-SiteId', value: '{siteId}', enforced: true }],
  coverageMatchesSearch: [{ lastName: 'Smith' }],
  entriesMatchFilter: ['anything', () => true],
  entriesSorted: ['created', () => 1, 'asc'],
  entriesSortedOverPages: ['created', () => 1, 'asc'],
  extensionCardinality: [{ atMostOne: ['groupId'] }],
  extensionsPresent: [['live']],
  errorStatusAndCode: [{ status: 400, code: 'NO_MATCH_FOUND' }],
  documentedCodeHasItsStatus: [[{ status: 400, code: 'NO_MATCH_FOUND' }]],
  invalidIdNamesId: ['b1'],
  matchesSchema: ['coverage.schema.json'],
  refusalReturnsNoData: ['accounts-user-info.schema.json'],
  outcomeIssuesHave: [{ severity: 'error' }],
  outcomeIssuesHaveWhenPresent: [{ location: ['Coverage'] }],
  pageWithinCount: [10],
  pagingTagsMatchRequest: [{ page: 1 }],
  pagingTagsPresent: [['page']],
  someEntryMatches: ['anything', () => true],
  successStatus: [],
  sentParametersRead: [operation('find-member-v2')],
  // Document 1: find member, search authorisation, remittance batches
  batchStillListed: ['b1'],
  filterExcludesAll: ['authCode=NONE'],
  // Document 1: remittance search, hospital claims, bills
  entryExtensionCardinality: [{ atMostOne: ['paymentMethod'] }],
  // Document 2
  addressKeyMatches: ['k1'],
  arrayHasItem: ['of type Address', () => true],
  arrayLengthIs: [1],
  distinctBy: ['practitioner'],
  controlParametersForInsurer: ['INS001'],
  unmatchedValueGivesNothing: ['profession=NONE'],
  codeSetPageSizeBounded: ['0', 10],
  mediaTypeIs: ['application/json'],
  postcodeValidationAnswer: [{ postcode: 'SW1A 1AA', valid: true }],
  singleEntryWithId: ['p1'],
  statusIs: [400],
  valueSetItemsMatch: ['anything', () => true],
  valueSetPageWithinCount: [10],
  withinRadius: [{ lat: 51.5, lon: -0.1, radiusKm: 5 }],
  // Document 3
  accountsErrorAnswer: [{ status: 403, message: 'Features not found' }],
  contractHoldsItem: [{ system: 'ISC', code: 'CONF-SVC-1' }],
  diaryListShape: [['id', 'status']],
  memberDistinctAcross: ['msgId'],
  membersPresent: [['id']],
  diaryResponseCode: [2],
  patientRoundTrip: [{ resourceType: 'Patient' }],
  sitesMatchSearch: ['Clinic'],
  sitesV2Pagination: [{ pageNumber: 1, maxRecordsPerPage: 10 }],
  tokenDetailsErrorAnswer: [{ status: 400, message: 'redirect_uri is required' }],
  conditionRoundTrip: [{ resourceType: 'Condition' }],
  everyPayorAnswered: [['bup', 'slf']],
  idsListed: ['sites', ['S1']],
  keepsId: ['C1'],
  listMemberEmpty: ['users'],
  answerNamesRequested: ['siteId', 'SITE001', 'path siteId'],
  messageIs: ['Siteid is invalid : X'],
  resourceUnchanged: [{ resourceType: 'Patient' }],
  sitesActive: [{ list: '[]', idMember: 'id', statusRequired: true }],
};

/** Exported functions that are helpers, not checks: the registry's list. */
const helpers = HELPER_EXPORTS;

const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function isCheck(value: unknown): value is Check<never> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Check).id === 'string' &&
    typeof (value as Check).run === 'function'
  );
}

function allChecks(): Array<[string, Check<never>]> {
  const found: Array<[string, Check<never>]> = [];
  for (const [name, value] of Object.entries(checks)) {
    if (helpers.has(name)) continue;
    if (typeof value === 'function') {
      expect(factoryArgs, `factory ${name} needs sample arguments in index.test.ts`).toHaveProperty(name);
      const made: unknown = (value as (...args: unknown[]) => unknown)(...factoryArgs[name]);
      expect(isCheck(made), `${name}(...) returns a check`).toBe(true);
      found.push([name, made as Check<never>]);
    } else {
      expect(isCheck(value), `${name} is a check`).toBe(true);
      found.push([name, value as Check<never>]);
    }
  }
  return found;
}

describe('checks/index.ts', () => {
  const found = allChecks();

  it('exports every check file', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const support = new Set([
      'index',
      'registry',
      'testing',
      'readJson',
      'resourceKey',
      'listBrief',
      'sortKey',
      'valueSet',
      'roleReferences',
      'contract',
      'sites',
      'valueKind',
      'extensionCount',
    ]);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => f.slice(0, -3))
      .filter((f) => !support.has(f));
    expect(files.sort()).toEqual(found.map(([name]) => name).sort());
  });

  it('gives every check a unique kebab-case id and a summary', () => {
    const ids = found.map(([, c]) => c.id);
    for (const [name, c] of found) {
      expect(c.id, name).toMatch(KEBAB);
      expect(c.summary.trim(), name).not.toBe('');
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names each file after its export and its id after the name', () => {
    for (const [name, c] of found) {
      expect(c.id).toBe(name.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`));
    }
  });
});

describe('checks/registry.ts', () => {
  it('registers every check and factory of the barrel by its id, and nothing else', () => {
    const ids = allChecks()
      .map(([, c]) => c.id)
      .sort();
    expect([...CHECK_REGISTRY.keys()].sort()).toEqual(ids);
    for (const [name, c] of allChecks()) expect(CHECK_REGISTRY.get(c.id)?.exportName).toBe(name);
  });
});
