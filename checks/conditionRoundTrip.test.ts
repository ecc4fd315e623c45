import { describe, expect, it } from 'vitest';
import { conditionRoundTrip } from './conditionRoundTrip.ts';
import { respondedExchange } from './testing.ts';

const sent = {
  resourceType: 'Condition',
  evidence: [
    {
      detail: [
        {
          display: 'referral.pdf',
          identifier: { id: 'attachment', system: 'https://files.example', value: 'files/referral.pdf' },
        },
      ],
    },
  ],
  note: [{ text: 'Conformance note', authorReference: { reference: 'patient/P1' } }],
};

describe('conditionRoundTrip', () => {
  it('passes by meaning: extra members, added reference, letter case of patient', () => {
    const got = {
      resourceType: 'Condition',
      id: 'C1',
      'x-note': 1,
      evidence: [
        {
          detail: [
            {
              display: 'referral.pdf',
              reference: 'Binary/1',
              identifier: {
                value: 'files/referral.pdf',
                system: 'https://files.example',
                id: 'attachment',
                extra: true,
              },
            },
          ],
        },
      ],
      note: [
        { authorReference: { reference: 'Patient/P1', display: null }, text: 'Conformance note', time: '2026-01-01' },
      ],
    };
    expect(conditionRoundTrip(sent).run(respondedExchange({ body: got })).outcome).toBe('pass');
  });
  it('fails when the note names another patient or a detail is lost', () => {
    const f = conditionRoundTrip(sent).run(
      respondedExchange({
        body: {
          resourceType: 'Condition',
          id: 'C1',
          note: [{ text: 'Conformance note', authorReference: { reference: 'patient/P2' } }],
        },
      }),
    );
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('evidence detail "referral.pdf"');
  });
});
