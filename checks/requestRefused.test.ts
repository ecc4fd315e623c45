import { describe, expect, it } from 'vitest';
import { requestRefused } from './requestRefused.ts';
import { respondedExchange } from './testing.ts';

describe('requestRefused', () => {
  it.each([400, 401, 403, 404, 422, 499])('passes on HTTP %i', (status) => {
    expect(requestRefused.run(respondedExchange({ status })).outcome).toBe('pass');
  });

  it('fails a success', () => {
    expect(requestRefused.run(respondedExchange({ status: 200, body: { resourceType: 'Coverage' } })).message).toBe(
      'Expected a 4xx refusal, received HTTP 200',
    );
    expect(requestRefused.run(respondedExchange({ status: 302 })).outcome).toBe('fail');
  });

  it('fails a server error, saying why', () => {
    expect(requestRefused.run(respondedExchange({ status: 500 })).message).toBe(
      'Expected a 4xx refusal, received HTTP 500 (a server error is not a refusal)',
    );
  });
});
