/** Probes of the variants in server/variants/d1Membership.ts (see ./types.ts). */
import { paths, type Answer } from '../../server/testSupport.ts';
import type { Probe, Probes } from './types.ts';

const v2Single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const v2Multiple = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };

/** BATCH-1001 (SITE001): two providers, both short-payment styles, both patient-name forms. */
const batch1001: Probe = (s) => s.get(paths.batch('BATCH-1001'));
/** BATCH-1003 has no insurer. */
const batch1003: Probe = (s) => s.get(paths.batch('BATCH-1003'));

/** A form POST without Content-Type (a byte body, so fetch adds none). */
const formWithoutContentType: Probe = async (s) => {
  const res = await fetch(`${s.url}${paths.authorisation}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await s.token()}`, 'su-siteid': 'SITE001' },
    body: new TextEncoder().encode('count=1'),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const answer: Answer = { status: res.status, headers: res.headers, text, json };
  return answer;
};

export const PROBES: Probes = {
  'batch-optional-members-null': batch1003,
  'batch-money-as-text': batch1001,
  'batch-short-pay-single': batch1001,
  'batch-cuid-scope-absent': batch1001,
  'batch-recipient-other-form': batch1001,
  'batch-claims-reverse-order': batch1001,
  'batch-payment-method-long-text': batch1001,
  'batch-msgid-not-sequential': batch1001,
  'pending-list-order-varies': (s) => s.get(paths.batches),
  'invalid-id-status-400': (s) => s.get(paths.batch('NO-SUCH-BATCH')),
  'invalid-id-object': (s) => s.get(paths.batch('NO-SUCH-BATCH')),
  'form-content-type-optional': formWithoutContentType,
  'unsupported-insurer-no-match': (s) => s.findMember('2', { ...v2Single, insurerIdentifier: 'bup' }),
  'multiple-match-other-wording': (s) => s.findMember('2', v2Multiple),
  'coverage-period-date-only': (s) => s.findMember('2', v2Single),
  'find-member-success-201': (s) => s.findMember('2', v2Single),
  'coverage-gender-capitalised': (s) => s.findMember('2', v2Single),
  'outcome-other-code-system': (s) => s.findMember('2', { ...v2Single, lastName: 'Nobody' }),
  'outcome-location-expression-absent': (s) => s.findMember('2', { ...v2Single, lastName: 'Nobody' }),
  'malformed-date-cant-parse': (s) => s.findMember('2', { ...v2Single, dateOfBirth: '12/04/1980' }),
  'authorisation-default-window': (s) => s.form(paths.authorisation, { count: '50' }),
  'authorisation-read-status-refused': (s) => s.form(paths.authorisation, { status: 'read' }),
  'authorisation-bundle-collection': (s) => s.form(paths.authorisation, { count: '1' }),
  'preauth-claim-without-id': (s) => s.form(paths.authorisation, { count: '1' }),
  'find-member-v1-insurer-rule': (s) => s.findMember('1', { insurerIdentifier: 'ppp', membershipNumber: 'PPP100001' }),
  'site-header-missing-403': (s) => s.form(paths.authorisation, { count: '1' }, { site: null }),
  // PA-0001 was issued at 2025-06-16T08:53: the end minute of this range.
  'authorisation-range-end-exclusive': (s) =>
    s.form(paths.authorisation, { issueDate: '2025-06-16T08:00_2025-06-16T08:53', count: '5' }),
  'find-member-json-body-param-invalid': async (s) =>
    s.request('POST', paths.findMember, {
      headers: {
        authorization: `Bearer ${await s.token()}`,
        'su-siteid': 'SITE001',
        'svc-api-version': '2',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: JSON.stringify(v2Single),
    }),
  'coverage-policy-renewed-term': (s) => s.findMember('2', { ...v2Single, policyActiveOn: '2025-06-01' }),
  // BATCH-2001 belongs to SITE002.
  'foreign-batch-forbidden': (s) => s.get(paths.batch('BATCH-2001')),
};
