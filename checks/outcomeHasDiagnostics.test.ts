import { describe, expect, it } from 'vitest';
import { outcomeHasDiagnostics } from './outcomeHasDiagnostics.ts';
import { respondedExchange } from './testing.ts';

const outcome = (diagnostics: unknown) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', diagnostics }],
});

describe('outcomeHasDiagnostics', () => {
  it('passes on non-empty diagnostics', () => {
    const finding = outcomeHasDiagnostics.run(respondedExchange({ status: 400, body: outcome('Refine the search') }));
    expect(finding.outcome).toBe('pass');
    expect(finding.evidence).toEqual({ diagnostics: 'Refine the search' });
  });

  it('fails on empty, blank, missing and mistyped diagnostics', () => {
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: outcome('') })).message).toBe(
      'Expected an issue with non-empty diagnostics text, received ""',
    );
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: outcome('   ') })).outcome).toBe('fail');
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: outcome(undefined) })).message).toBe(
      'Expected an issue with non-empty diagnostics text, received <absent>',
    );
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: outcome(12) })).outcome).toBe('fail');
  });

  it('reads any issue, not only the first (which issue comes first is not fixed)', () => {
    const body = { resourceType: 'OperationOutcome', issue: [{ severity: 'warning' }, { diagnostics: 'Refine' }] };
    expect(outcomeHasDiagnostics.run(respondedExchange({ body })).outcome).toBe('pass');
  });

  it('fails without issues', () => {
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: { resourceType: 'OperationOutcome' } })).message).toBe(
      'Expected an issue with non-empty diagnostics text, received no issue[]',
    );
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: { issue: [] } })).message).toMatch(/received no issue$/);
  });

  it('fails on empty and non-JSON bodies', () => {
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: '' })).message).toBe(
      'Expected a JSON body, received an empty body',
    );
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: 'oops' })).message).toBe(
      'Expected a JSON body, received "oops"',
    );
    expect(outcomeHasDiagnostics.run(respondedExchange({ body: [1] })).message).toBe(
      'Expected a JSON object, received an array of 1',
    );
  });
});
