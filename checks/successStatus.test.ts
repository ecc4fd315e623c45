import { describe, expect, it } from 'vitest';
import { successStatus } from './successStatus.ts';
import { respondedExchange } from './testing.ts';

describe('successStatus', () => {
  it('accepts any 2xx without an expected status', () => {
    expect(successStatus().run(respondedExchange({ status: 200 })).outcome).toBe('pass');
    expect(successStatus().run(respondedExchange({ status: 204 })).outcome).toBe('pass');
  });

  it('fails a non-2xx', () => {
    expect(successStatus().run(respondedExchange({ status: 400 })).message).toBe(
      'Expected HTTP 2xx, received HTTP 400',
    );
    expect(successStatus().run(respondedExchange({ status: 302 })).outcome).toBe('fail');
  });

  it('requires the expected status when given', () => {
    expect(successStatus(200).run(respondedExchange({ status: 200 })).outcome).toBe('pass');
    expect(successStatus(200).run(respondedExchange({ status: 201 })).message).toBe(
      'Expected HTTP 200, received HTTP 201',
    );
  });

  it('keeps one id across parameters', () => {
    expect(successStatus().id).toBe(successStatus(200).id);
  });
});
