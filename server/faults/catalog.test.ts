import { describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { operationsD2 } from '../../spec/operationsD2.ts';
import { operationsD3 } from '../../spec/operationsD3.ts';
import { SERVED_OPERATIONS } from '../router/operationTable.ts';
import { startSandbox } from '../http.ts';
import { ActiveFaults, FAULTS, FAULT_NAMES, faultInfo, isKnownFault } from './catalog.ts';

describe('fault catalogue', () => {
  test('uniquely named faults, in the order of FAULT_NAMES', () => {
    // The first faults in the order of FAULT_NAMES, then the row faults (server/faults/rows/).
    expect(FAULTS.slice(0, FAULT_NAMES.length).map((f) => f.name)).toEqual([...FAULT_NAMES]);
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    expect(FAULTS.length, 'a fault was lost').toBeGreaterThanOrEqual(64);
  });

  test('every entry names served operations and a kebab-case check', () => {
    const known = new Set(SERVED_OPERATIONS.map((o) => o.id));
    for (const f of FAULTS) {
      expect(f.operations.length, f.name).toBeGreaterThan(0);
      for (const op of f.operations) expect(known.has(op), `${f.name}: ${op}`).toBe(true);
      expect(f.expectedCheck).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(f.kind && f.rule && f.description, f.name).toBeTruthy();
    }
  });

  test('a fault concerns the operations of one document only', () => {
    const documentOf = new Map(SERVED_OPERATIONS.map((o) => [o.id, o.document]));
    for (const f of FAULTS) expect(new Set(f.operations.map((id) => documentOf.get(id))).size, f.name).toBe(1);
  });

  test('the Document 2 faults name the checks that must catch them', () => {
    // The catalogue's first faults; a row fault's check is asserted by the self-test (server/faults/rows/).
    const firstD2 = new Set<string>(FAULT_NAMES);
    const d2 = FAULTS.filter(
      (f) => firstD2.has(f.name) && f.operations.every((id) => operationsD2.some((o) => o.id === id)),
    );
    expect(Object.fromEntries(d2.map((f) => [f.name, [f.expectedCheck, ...f.operations]]))).toEqual({
      'radius-leak': ['within-radius', 'search-register-practitioner-roles'],
      'near-default-unit-miles': ['within-radius', 'search-register-practitioner-roles'],
      'role-name-sort-direction-ignored': ['entries-sorted', 'search-register-practitioner-roles'],
      'specialty-narrowing-leaks': ['value-set-items-match', 'get-code-set'],
      'codeset-offset-off-by-one': ['value-set-paging-consistent', 'get-code-set'],
      'codeset-count-bound-ignored': ['code-set-page-size-bounded', 'get-code-set'],
      'insurer-type-filter-ignored': ['entries-match-filter', 'list-insurers'],
      'photo-size-mismatch': ['photo-data-matches-size', 'get-practitioner-photo'],
      'invalid-postcode-error': ['success-status', 'validate-postcode'],
      'booking-unknown-id-200': ['error-status-and-code', 'get-booking-practitioner'],
      'since-date-format-accepted': ['error-status-and-code', 'search-booking-practitioners'],
      'distinct-by-ignored': ['distinct-by', 'search-register-practitioner-roles'],
      'include-ignored': ['included-resources-present', 'search-register-practitioner-roles'],
      'lookup-text-not-required': ['status-is', 'lookup-practitioners', 'lookup-locations'],
      'register-gender-filter-ignored': ['entries-match-filter', 'search-register-practitioners'],
      'retrieve-wrong-address': ['address-key-matches', 'retrieve-address'],
      'control-parameter-missing': ['control-parameters-complete', 'get-insurer-control-parameters'],
      'booking-role-since-ignored': ['entries-match-filter', 'search-booking-practitioner-roles'],
      'booking-practitioner-filters-ignored': ['unmatched-value-gives-nothing', 'search-booking-practitioners'],
      'control-parameters-other-insurer': ['control-parameters-for-insurer', 'get-insurer-control-parameters'],
      'distinct-by-not-first': ['distinct-by-first', 'search-register-practitioner-roles'],
      'codeset-past-last-page-malformed': ['coverage-phase-served', 'get-code-set'],
      'booking-refusal-server-error': [
        'invalid-request-answered',
        'search-booking-practitioners',
        'search-booking-practitioner-roles',
      ],
    });
  });

  test('the Document 3 faults name the checks that must catch them', () => {
    // The catalogue's first faults; a row fault's check is asserted by the self-test (server/faults/rows/).
    const first = new Set<string>(FAULT_NAMES);
    const d3 = FAULTS.filter(
      (f) => first.has(f.name) && f.operations.every((id) => operationsD3.some((o) => o.id === id)),
    );
    expect(Object.fromEntries(d3.map((f) => [f.name, [f.expectedCheck, ...f.operations]]))).toEqual({
      'accounts-error-code-as-text': ['accounts-error-body', 'introspect', 'get-user-details', 'list-features'],
      'introspect-skips-site-check': ['accounts-error-answer', 'introspect'],
      'sites-v2-next-page-at-end': ['sites-v2-pagination', 'list-authorised-sites-v2'],
      'site-users-invalid-404': ['success-status', 'get-site-users'],
      'revoke-keeps-access-token': ['request-refused', 'revoke-token'],
      'refresh-revoke-keeps-access': ['request-refused', 'revoke-token'],
      'token-details-error-shape': ['token-details-error-answer', 'get-idp-token-details'],
      'diary-unauthorized-body': [
        'empty-body',
        'list-episode-types',
        'list-appointment-statuses',
        'list-recurrence-types',
      ],
      'diary-unmapped-as-unauthorized': ['diary-response-code', 'diary-post-auth'],
      'patient-update-ignored': ['patient-round-trip', 'update-patient'],
      'patient-deleted-still-readable': ['error-status-and-code', 'delete-patient', 'get-patient'],
      'patient-missing-header-400': ['status-is', 'create-patient', 'get-patient'],
      'condition-orphan-accepted': ['error-status-and-code', 'create-condition'],
      'condition-for-deleted-patient-stored': ['state-sequence-holds', 'create-condition', 'delete-patient'],
      'payors-duplicated': ['payors-reserved-once', 'list-site-payors'],
      'procedure-without-service-accepted': ['request-refused', 'set-contract-service-with-procedure'],
      'delete-outcome-severity-error': ['matches-schema', 'delete-payor', 'delete-contact-payor'],
      'effective-prices-orphan-procedure': ['effective-prices-procedure-has-service', 'get-effective-prices'],
      'contract-item-system-other': [
        'contract-item-systems',
        'get-effective-prices',
        'set-contract-service',
        'set-contract-service-with-procedure',
        'set-contract-price',
      ],
      'effective-prices-first-payor-only': ['every-payor-answered', 'get-effective-prices'],
      'refresh-revoke-keeps-refresh': ['refresh-token-refused', 'revoke-token'],
      'patient-id-reused-after-delete': ['state-sequence-holds', 'create-patient', 'delete-patient'],
      'patient-body-shape-unchecked': ['invalid-request-answered', 'create-patient'],
    });
  });

  test('auth-not-enforced concerns every Document 1 operation', () => {
    expect(faultInfo('auth-not-enforced')?.operations).toHaveLength(
      operations.filter((o) => o.document === 'D1').length,
    );
  });

  test('isKnownFault and ActiveFaults', () => {
    expect(isKnownFault('ack-returns-204')).toBe(true);
    expect(isKnownFault('no-such-fault')).toBe(false);
    const active = new ActiveFaults(['count-ignored']);
    // A fault's modifier applies to the routes of its operations only.
    expect(active.for(['search-authorisation'])).toHaveLength(1);
    expect(active.for(['find-member-v1', 'find-member-v2'])).toHaveLength(0);
    expect(active.for(['search-remittance-detail'])).toHaveLength(0);
    expect(active.for([])).toHaveLength(0);
    expect(active.list()).toEqual(['count-ignored']);
    expect(() => new ActiveFaults(['nope'])).toThrow('Unknown fault nope');
  });

  test('startSandbox refuses an unknown fault', async () => {
    await expect(startSandbox({ faults: ['made-up'] })).rejects.toThrow('Unknown fault made-up');
  });
});
