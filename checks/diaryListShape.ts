import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { describe, readObject } from './readJson.ts';
import { briefValue } from './valueKind.ts';

/**
 * A diary list answers `{data, success, errors, status}` (document 3, 2.3; DEC-D3-11): `data` is
 * an array of objects each having the item's documented keys (any value), `status` an integer
 * and `success` a Boolean whose value is recorded (evidence `success`), not judged.
 */
export function diaryListShape(itemKeys: readonly string[]): Check {
  const shape = `{data: [{${itemKeys.join(', ')}}], status: integer, success: Boolean}`;
  return {
    id: 'diary-list-shape',
    summary: `The diary list is ${shape}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const { data, status, success, errors } = body.value;
      const evidence: Record<string, unknown> = {
        items: Array.isArray(data) ? data.length : undefined,
        status: briefValue(status, 40),
        success: briefValue(success, 40),
        errors: briefValue(errors, 100),
      };
      const problems: string[] = [];
      if (!Array.isArray(data)) problems.push(`data ${describe(data)}`);
      else {
        const bad: string[] = [];
        data.forEach((item, index) => {
          if (!isRecord(item)) bad.push(`item ${index + 1} is ${describe(item)}`);
          else {
            const missing = itemKeys.filter((k) => !Object.hasOwn(item, k));
            if (missing.length > 0) bad.push(`item ${index + 1} lacks ${missing.join(', ')}`);
          }
        });
        if (bad.length > 0)
          problems.push(`${bad.length} of ${data.length} items not of the documented shape: ${listBrief(bad, 3)}`);
      }
      if (!Number.isSafeInteger(status)) problems.push(`status ${show(status, 40)}`);
      if (typeof success !== 'boolean') problems.push(`success ${show(success, 40)}`);
      if (problems.length === 0)
        return pass(
          `${(data as unknown[]).length} items, status ${status as number}, success ${String(success)}`,
          evidence,
        );
      return fail(`Expected ${shape} (DEC-D3-11), received ${problems.join('; ')}`, evidence);
    },
  };
}
