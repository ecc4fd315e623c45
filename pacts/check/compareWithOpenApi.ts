/**
 * Part (a) of `pact check`: a partner's pact against the exported OpenAPI document of the family,
 * through PactFlow's openapi-pact-comparator (the library PactFlow's own bi-directional contract
 * testing uses): an unknown path or method, a request body, query or header the document does not
 * allow, a response status or body it does not allow. Each finding names the interaction it is
 * about (its index in the pact's `interactions`).
 */
import * as comparatorModule from '@pactflow/openapi-pact-comparator';

/**
 * The library's own declarations import their siblings without file extensions, which NodeNext
 * resolution cannot follow; this is the part of its API used here (dist/src/results/index.d.ts).
 */
interface ComparatorResult {
  code: string;
  message: string;
  type: 'error' | 'warning' | 'info';
  mockDetails?: { location: string; value?: unknown };
  specDetails?: { location: string };
}
type ComparatorClass = new (
  oas: object,
) => {
  compare(pact: object): AsyncGenerator<ComparatorResult>;
};
const { Comparator } = comparatorModule as unknown as { Comparator: ComparatorClass };

export interface OpenApiFinding {
  /** Index of the interaction in the pact, when the finding names one. */
  interaction?: number;
  code: string;
  message: string;
  type: 'error' | 'warning' | 'info';
  /** Where in the pact (`[root].interactions[2].request.body`). */
  location?: string;
  /** Where in the OpenAPI document. */
  specLocation?: string;
  /** The value of the pact at that place, as the comparator quotes it. */
  value?: unknown;
}

const INDEX = /interactions\[(\d+)\]/;

export async function compareWithOpenApi(openapi: object, pact: Record<string, unknown>): Promise<OpenApiFinding[]> {
  const comparator = new Comparator(openapi);
  const findings: OpenApiFinding[] = [];
  for await (const r of comparator.compare(pact)) {
    const location = r.mockDetails?.location;
    const index = location ? INDEX.exec(location)?.[1] : undefined;
    findings.push({
      ...(index !== undefined ? { interaction: Number(index) } : {}),
      code: r.code,
      message: r.message,
      type: r.type,
      ...(location ? { location } : {}),
      ...(r.specDetails?.location ? { specLocation: r.specDetails.location } : {}),
      ...(r.mockDetails && 'value' in r.mockDetails ? { value: r.mockDetails.value } : {}),
    });
  }
  return findings;
}
