import { describe, expect, it } from 'vitest';
import { documentedMethodServed } from './documentedMethodServed.ts';
import { respondedExchange } from './testing.ts';

describe('documentedMethodServed', () => {
  it('fails a 405 or 501 to the documented method, naming Allow', () => {
    const x = respondedExchange({ status: 405, method: 'POST', headers: { Allow: 'GET' } });
    expect(documentedMethodServed.run(x).message).toBe(
      'Expected POST to be served at the discovered address, received HTTP 405 (Allow: GET)',
    );
    expect(documentedMethodServed.run(respondedExchange({ status: 501 })).outcome).toBe('fail');
  });

  it('passes any other answer, a refusal of the parameters included', () => {
    for (const status of [200, 201, 400, 404, 422, 500])
      expect(documentedMethodServed.run(respondedExchange({ status })).outcome, String(status)).toBe('pass');
  });
});
