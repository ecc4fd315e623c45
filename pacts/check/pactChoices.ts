/**
 * Choices a partner's consumer pact may make where the documents leave a client free (the pact
 * side of the client's register, spec/silences.ts): each turns a pact (as its JSON) into one that
 * makes the choice. The pact self-test (pacts/check/pactChoices.test.ts) applies each to the
 * suite's own reference pacts, merged, and `pact check` must still find them conformant.
 */
import { normaliseHeaders } from '../../core/clientRequest.ts';
import { operation as operationOf } from '../../spec/operations.ts';
import { resolveOperation } from '../resolveOperation.ts';

type Json = unknown;
interface RawInteraction {
  description?: string;
  request?: { method?: string; path?: string; headers?: Record<string, unknown>; body?: Json };
  response?: { status?: number; headers?: Record<string, unknown>; body?: Json };
  [k: string]: unknown;
}
interface RawPact {
  interactions: RawInteraction[];
  [k: string]: unknown;
}

export interface PactChoice {
  description: string;
  apply(pact: RawPact): RawPact;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An answer as a consumer that reads little of it records it: of every object, its
 * `resourceType` (what it is) and its first other member; of every array, its first item.
 */
export function fewerMembers(body: Json): Json {
  if (Array.isArray(body)) return body.slice(0, 1).map(fewerMembers);
  if (!isObject(body)) return body;
  const keys = Object.keys(body);
  const kept = [
    ...new Set([...keys.filter((k) => k === 'resourceType'), ...keys.filter((k) => k !== 'resourceType').slice(0, 1)]),
  ];
  return Object.fromEntries(kept.map((k) => [k, fewerMembers(body[k])]));
}

const headerName = (headers: Record<string, unknown> | undefined, name: string): string | undefined =>
  Object.keys(headers ?? {}).find((h) => h.toLowerCase() === name.toLowerCase());

export const PACT_CHOICES: Readonly<Record<string, PactChoice>> = {
  'relies-on-fewer-members': {
    description:
      'a consumer pact whose answers hold only what the consumer reads (the first member of each object beside resourceType, the first item of each array) (DEC-C-13)',
    apply: (pact) => ({
      ...pact,
      interactions: pact.interactions.map((i) =>
        i.response?.body === undefined ? i : { ...i, response: { ...i.response, body: fewerMembers(i.response.body) } },
      ),
    }),
  },
  'tests-documented-refusals': {
    description:
      'a consumer pact that also tests documented refusals: each interaction again without Authorization, expecting the 401 its operation documents (DEC-C-13)',
    apply: (pact) => ({
      ...pact,
      interactions: pact.interactions.flatMap((i) => {
        const op = resolveOperation(
          i.request?.method ?? 'GET',
          i.request?.path ?? '/',
          normaliseHeaders(i.request?.headers),
        );
        const authorization = headerName(i.request?.headers, 'Authorization');
        if (!op || !authorization || !operationOf(op.id).errors.some((e) => e.status === 401)) return [i];
        const { [authorization]: _dropped, ...rest } = i.request?.headers ?? {};
        return [
          i,
          {
            ...i,
            description: `${i.description ?? 'interaction'} without credentials`,
            request: { ...i.request, headers: rest },
            response: { status: 401 },
          },
        ];
      }),
    }),
  },
};
