import { describe, expect, it } from 'vitest';
import { diaryListShape } from './diaryListShape.ts';
import { respondedExchange } from './testing.ts';

const check = diaryListShape(['id', 'type', 'description']);
const run = (body: unknown) => check.run(respondedExchange({ body }));
const item = (id: number) => ({ id, type: `T${id}`, description: null });

describe('diaryListShape', () => {
  it('passes on the documented list and records success', () => {
    const finding = run({ data: [item(1), item(2)], success: false, errors: null, status: 200 });
    expect(finding).toMatchObject({ outcome: 'pass', message: '2 items, status 200, success false' });
    expect(finding.evidence).toMatchObject({ items: 2, status: 200, success: false, errors: null });
    expect(run({ data: [], success: true, status: 0 }).outcome).toBe('pass');
  });

  it('fails on items lacking keys or not objects', () => {
    expect(run({ data: [item(1), { id: 2 }, 'x'], success: true, status: 200 }).message).toBe(
      'Expected {data: [{id, type, description}], status: integer, success: Boolean} (DEC-D3-11), received 2 of 3 items not of the documented shape: item 2 lacks type, description, item 3 is "x"',
    );
  });

  it('fails on a non-array data, non-integer status or non-Boolean success', () => {
    expect(run({ data: { id: 1 }, success: true, status: 200 }).message).toContain(
      'received data an object without resourceType',
    );
    expect(run({ data: [], success: 'false', status: 200 }).message).toContain('received success "false"');
    expect(run({ data: [], success: true, status: '200' }).message).toContain('received status "200"');
    expect(run({ data: [], success: true, status: 200.5 }).outcome).toBe('fail');
    expect(run({}).message).toContain('received data <absent>; status <absent>; success <absent>');
  });

  it("does not take inherited keys for the item's own", () => {
    expect(
      diaryListShape(['constructor']).run(respondedExchange({ body: { data: [{}], success: true, status: 200 } }))
        .outcome,
    ).toBe('fail');
    expect(
      diaryListShape(['__proto__']).run(
        respondedExchange({ body: '{"data":[{"__proto__":1}],"success":true,"status":200}' }),
      ).outcome,
    ).toBe('pass');
  });

  it('never throws on hostile bodies', () => {
    expect(run('').outcome).toBe('fail');
    expect(run([]).message).toBe('Expected a JSON object, received an array of 0');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(diaryListShape(['id', 'status']).id).toBe(check.id);
  });
});
