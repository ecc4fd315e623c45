import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';

/**
 * A patient or condition delete answers Parameters `{parameter: [{name: 'Status', valueString:
 * 'DELETED'}]}` (document 3, 3 and 4.4). The example shows no `resourceType`, so it may be
 * absent; when present it must be `Parameters`. Other parameters may accompany it.
 */
export const deletedStatusParameters: Check = {
  id: 'deleted-status-parameters',
  summary: 'The delete answers Parameters with Status DELETED',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    const { resourceType, parameter } = body.value;
    if (resourceType !== undefined && resourceType !== 'Parameters')
      return fail(`Expected a Parameters resource, received ${describe(body.value)}`);
    if (!Array.isArray(parameter)) return fail(`Expected a parameter array, received ${describe(parameter)}`);
    const status = parameter.filter((p): p is Record<string, unknown> => isRecord(p) && p.name === 'Status');
    const evidence = { parameters: parameter.length, status: status.map((p) => show(p.valueString, 60)) };
    if (status.some((p) => p.valueString === 'DELETED')) return pass('Status DELETED', evidence);
    const received =
      status.length === 0
        ? `no Status parameter among ${parameter.length}`
        : `Status ${status.map((p) => show(p.valueString, 40)).join(', ')}`;
    return fail(`Expected a parameter {name: "Status", valueString: "DELETED"}, received ${received}`, evidence);
  },
};
