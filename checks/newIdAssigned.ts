import { fail, pass, type Check } from '../core/check.ts';
import { describe, readObject } from './readJson.ts';

/**
 * A create answers the created resource with its new `id` (document 3, 4.4: "the created
 * Patient" / "the created Condition" with its `id`; 2.4/2.5: `id` assigned on creation): a
 * non-empty string, or a number (ids whose form is not shown are compared as text).
 */
export const newIdAssigned: Check = {
  id: 'new-id-assigned',
  summary: 'Create assigns a new id',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const id = body.value.id;
    if ((typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id)))
      return pass(`id ${String(id)}`);
    return fail(`Expected a new id in the created resource, received id ${describe(id)}`);
  },
};
