import { describe, expect, it } from 'vitest';
import { arrayLengthIs } from './arrayLengthIs.ts';
import { respondedExchange } from './testing.ts';

const check = arrayLengthIs(1);
const run = (body: unknown) => check.run(respondedExchange({ body }));

describe('arrayLengthIs', () => {
  it('passes on an array of exactly the length', () => {
    expect(run([{ key: 'a' }])).toMatchObject({ outcome: 'pass', message: '1 item' });
    expect(arrayLengthIs(0).run(respondedExchange({ body: [] })).outcome).toBe('pass');
  });

  it('fails on another length', () => {
    expect(run([{ key: 'a' }, { key: 'b' }])).toMatchObject({
      outcome: 'fail',
      message: 'Expected exactly 1 item, received 2',
    });
    expect(run([]).outcome).toBe('fail');
  });

  it('fails on a body that is not an array and never throws', () => {
    expect(run({ key: 'a' }).outcome).toBe('fail');
    expect(run('').outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '[', truncated: true })).outcome).toBe('skip');
    expect(arrayLengthIs(3).id).toBe(check.id);
  });
});
