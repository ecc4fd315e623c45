import { fail, pass, show, type Check } from '../core/check.ts';
import { type ClientRequest, fieldsOf } from '../core/clientRequest.ts';
import { formProblem } from '../spec/parameterFormats.ts';

/**
 * The client sends the form fields (POST) or query parameters (GET) of its operation as the
 * documents describe them: every required one, each in its documented form (a date as
 * YYYY-MM-DD, an insurer code of the operation's list, a positive count). Section 4 of each
 * document lists them per operation.
 */
export const clientSendsDocumentedParameters: Check<ClientRequest> = {
  id: 'client-sends-documented-parameters',
  summary: 'The request sends every required parameter of its operation, each in its documented form',
  run: (request) => {
    const where = request.method === 'GET' ? 'query' : 'form';
    const params = request.operation.parameters.filter((p) => p.in === where);
    const sent = fieldsOf(request);
    const missing = params.filter((p) => p.required && !sent.has(p.name)).map((p) => p.name);
    const malformed = params.flatMap((p) =>
      sent.getAll(p.name).flatMap((v) => {
        const problem = formProblem(p, v);
        return problem ? [`${p.name}=${show(v, 40)} (${problem})`] : [];
      }),
    );
    if (missing.length === 0 && malformed.length === 0)
      return pass(`${params.filter((p) => sent.has(p.name)).length} documented parameter(s) sent as documented`);
    return fail(
      `Expected every required parameter in its documented form, received ${[
        missing.length ? `no ${missing.join(', ')}` : '',
        malformed.join(', '),
      ]
        .filter(Boolean)
        .join('; ')}`,
      { missing, malformed },
    );
  },
};
