import { describe, expect, it } from 'vitest';
import { agreesWithOpenApi } from './agreesWithOpenApi.ts';

describe('agreesWithOpenApi', () => {
  const request = agreesWithOpenApi('request');
  const response = agreesWithOpenApi('response');

  it('passes a side without errors, noting its warnings', () => {
    expect(request.run({ side: 'request', findings: [] }).outcome).toBe('pass');
    const noted = request.run({
      side: 'request',
      findings: [{ code: 'request.header.unknown', message: 'Request header is not defined', type: 'warning' }],
    });
    expect(noted.outcome).toBe('pass');
    expect(noted.message).toContain('request.header.unknown');
  });

  it("fails on an error of its own side only, quoting the comparator's code and value", () => {
    const findings = [
      {
        code: 'request.path-or-method.unknown',
        message: 'Path or method not defined in spec file: GET /b',
        type: 'error' as const,
        value: '/b',
      },
    ];
    const f = request.run({ side: 'request', findings });
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected a request the documents allow, received request.path-or-method.unknown: Path or method not defined in spec file: GET /b ("/b")',
    );
    expect(response.run({ side: 'response', findings }).outcome).toBe('pass');
  });
});
