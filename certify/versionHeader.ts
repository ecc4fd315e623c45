/**
 * How a certification workspace reads the patients' version (DEC-C-03): Document 3, 4.4 lists "a
 * version-id header" among the headers of every patient operation and never names it (DEC-D3-07:
 * a server's name is its config's; the sandbox's is `SVC-API-Version`). A partner's client that
 * sends the version under another name a reading of those words gives (`Version-Id`,
 * `X-Version-Id`, `API-Version`, `X-API-Version` ...) is making a choice the documents allow, so
 * the workspace takes the version from such a header when `SVC-API-Version` is absent, rather than
 * refusing the request 401 and leaving the client's scenario unfinished. The request is recorded
 * as the client sent it: the header's name is judged (at INFO) by the client judge alone.
 */
import { PATIENT_VERSION_HEADER } from '../server/router/patients.ts';
import type { ActiveModifiers, Modifier } from '../server/router/types.ts';
import { PATIENT_OPERATIONS } from '../spec/operations.ts';

/** A header name that reads as "a version-id header": one whose words include `version`. */
const VERSION_NAME = /^(x-)?([a-z]+-)*version(-id)?$/i;

const versionHeaderNames: Modifier = {
  request: (request) => {
    if ((request.headers[PATIENT_VERSION_HEADER] ?? '').trim() !== '') return request;
    const other = Object.entries(request.headers).find(
      ([name, value]) => name !== PATIENT_VERSION_HEADER && VERSION_NAME.test(name) && (value ?? '').trim() !== '',
    );
    return other === undefined
      ? request
      : { ...request, headers: { ...request.headers, [PATIENT_VERSION_HEADER]: other[1] } };
  },
};

/** The workspace's reading of the version header, around the scenario's own modifiers (if any). */
export function withVersionHeaderNames(scenario?: ActiveModifiers): ActiveModifiers {
  return {
    for: (operations) => [
      ...(scenario?.for(operations) ?? []),
      ...(operations.some((o) => (PATIENT_OPERATIONS as readonly string[]).includes(o)) ? [versionHeaderNames] : []),
    ],
    list: () => [...(scenario?.list() ?? []), "the patients' version read from any version-id header (DEC-C-03)"],
  };
}
