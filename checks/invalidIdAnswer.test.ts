import { describe, expect, it } from 'vitest';
import { invalidIdAnswer } from './invalidIdAnswer.ts';
import { respondedExchange } from './testing.ts';

describe('invalidIdAnswer', () => {
  it('passes on a 4xx naming InvalidId', () => {
    expect(
      invalidIdAnswer.run(respondedExchange({ status: 404, body: { code: 'InvalidId', type: 'id', id: 'b9' } }))
        .outcome,
    ).toBe('pass');
    expect(invalidIdAnswer.run(respondedExchange({ status: 400, body: 'InvalidId b9' })).outcome).toBe('pass');
  });

  it('fails on a 4xx without InvalidId', () => {
    const finding = invalidIdAnswer.run(respondedExchange({ status: 404, body: { code: 'NotFound' } }));
    expect(finding.message).toBe(
      'Expected a 4xx status with InvalidId in the body, received HTTP 404 with body "{\\"code\\":\\"NotFound\\"}"',
    );
  });

  it('fails on InvalidId with a non-4xx status', () => {
    expect(invalidIdAnswer.run(respondedExchange({ status: 200, body: { code: 'InvalidId' } })).message).toBe(
      'Expected a 4xx status with InvalidId in the body, received HTTP 200 with InvalidId in the body',
    );
  });

  it('fails on an empty body', () => {
    expect(invalidIdAnswer.run(respondedExchange({ status: 404 })).message).toBe(
      'Expected a 4xx status with InvalidId in the body, received HTTP 404 with an empty body',
    );
  });
});
