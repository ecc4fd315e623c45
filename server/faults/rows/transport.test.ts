/** Every transport fault reads the parameters from the other place, where the clean sandbox reads the documented one. */
import { expect } from 'vitest';
import { errorCode, paths, revokeWith, introspectStatus, withQuery, type Answer } from '../../testSupport.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';
import { TRANSPORT_ROW_FAULTS } from './transport.ts';

type J = any;

const v2Single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const v1Single = { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' };
const statusAndCode = (a: Answer) => [a.status, errorCode(a.json)];

const refusal = (a: Answer) => [a.status, a.headers.get('allow')];

const SCENARIOS: Record<string, Scenario> = {
  'find-member-v1-post-refused': async (clean, faulty) => {
    expect((await clean.findMember('1', v1Single)).status).toBe(200);
    expect(refusal(await faulty.findMember('1', v1Single))).toEqual([405, 'GET']);
    // Version 2 keeps being served.
    expect((await faulty.findMember('2', v2Single)).status).toBe(200);
  },
  'insurer-control-parameters-get-refused': async (clean, faulty) => {
    const path = withQuery(paths.controlParameters, { insurerId: 'INS001' });
    expect((await clean.get(path)).status).toBe(200);
    expect(refusal(await faulty.get(path))).toEqual([405, 'POST']);
    expect((await faulty.get(paths.insurers)).status).toBe(200);
  },
  'get-patient-get-refused': async (clean, faulty) => {
    expect((await clean.patient('GET', paths.patient('PAT-0002'))).status).toBe(200);
    expect(refusal(await faulty.patient('GET', paths.patient('PAT-0002')))).toEqual([405, 'DELETE']);
    // The other patient operations keep being served.
    expect((await faulty.patient('PUT', paths.updatePatient('PAT-0002'), {})).status).not.toBe(405);
  },
  'find-member-v2-reads-query-not-form': async (clean, faulty) => {
    const c = await clean.findMember('2', v2Single);
    expect([c.status, (c.json as J)?.resourceType]).toEqual([200, 'Coverage']);
    expect(statusAndCode(await faulty.findMember('2', v2Single))).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    // The same fields in the query are what the faulty server reads.
    const fromQuery = await faulty.form(
      withQuery(paths.findMember, v2Single),
      {},
      { headers: { 'svc-api-version': '2' } },
    );
    expect(fromQuery.status).toBe(200);
    // Version 1 keeps reading its form.
    expect((await faulty.findMember('1', v1Single)).status).toBe(200);
  },
  'lookup-practitioners-reads-body-not-query': async (clean, faulty) => {
    const query = withQuery(paths.lookupPractitioners, { text: 'Smith', count: '10' });
    expect((await clean.get(query)).status).toBe(200);
    expect(statusAndCode(await faulty.get(query))).toEqual([400, 'MSG_MISSING_MANDATORY_PARAM']);
    // Location lookup keeps reading its query.
    expect((await faulty.get(withQuery(paths.lookupLocations, { text: 'London' }))).status).toBe(200);
  },
  'revoke-token-reads-query-not-form': async (clean, faulty) => {
    for (const s of [clean, faulty]) {
      const { access_token } = await s.signIn();
      const revoked = await revokeWith(s, { token: access_token, token_type_hint: 'access_token' });
      expect(revoked.status).toBe(s === clean ? 200 : 400);
      expect(await introspectStatus(s, access_token)).toBe(s === clean ? 401 : 200);
    }
  },
};

describeRowFaults('Transport', TRANSPORT_ROW_FAULTS, SCENARIOS);
