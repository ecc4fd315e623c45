import { fail, pass, show, type Check } from '../core/check.ts';

/** One finding of a comparison of a pact interaction with the exported OpenAPI document. */
export interface OpenApiComparison {
  /** `request` or `response`: the side of the interaction judged. */
  side: 'request' | 'response';
  findings: readonly { code: string; message: string; type: 'error' | 'warning' | 'info'; value?: unknown }[];
}

/**
 * One side of a pact interaction agrees with the OpenAPI document exported from the operation table
 * and the schemas (`conformance openapi`): the request addresses a documented path and method with
 * parameters, headers and body the documents allow; the response the consumer expects has a status
 * and body the documents allow. Errors of the comparator fail; its warnings (a header or query
 * parameter the documents do not name, a body it cannot validate) are shown but do not fail.
 */
export const agreesWithOpenApi = (side: OpenApiComparison['side']): Check<OpenApiComparison> => ({
  id: 'agrees-with-open-api',
  summary: `The ${side} of the interaction agrees with the exported OpenAPI document`,
  run: (subject) => {
    const own = subject.findings.filter((f) => f.code.startsWith(`${side}.`));
    const errors = own.filter((f) => f.type === 'error');
    const describe = (f: (typeof own)[number]) =>
      `${f.code}: ${f.message}${f.value !== undefined ? ` (${show(f.value, 60)})` : ''}`;
    if (errors.length > 0)
      return fail(`Expected a ${side} the documents allow, received ${errors.map(describe).join('; ')}`, {
        findings: own,
      });
    const warnings = own.filter((f) => f.type === 'warning');
    return pass(
      warnings.length > 0 ? `Agrees; noted: ${warnings.map(describe).join('; ')}` : `The ${side} agrees`,
      warnings.length > 0 ? { findings: warnings } : undefined,
    );
  },
});
