/**
 * The members the documents make volatile: values a server makes per answer or per record (a time
 * of change, an id it assigns, a token it issues), which two conforming servers, or one server
 * twice, answer otherwise. Without a second reference to learn the noise from (`compare --second`),
 * the comparison leaves these out; each entry quotes the words it rests on (a test checks that each
 * quote stands verbatim in the documents).
 *
 * A hand list: the JSON Schemas (schemas/) mark no member `readOnly` (server-assigned), so there is
 * nothing to derive from them; were they to, those members would be read from the schemas here.
 */
import { isRecord } from '../../core/exchange.ts';

export interface VolatileMember {
  /** A JSON pointer with `*` for any array index and `**` for any depth. */
  path: string;
  /** The operations whose answers carry it volatile; every one when absent. */
  operations?: readonly string[];
  /** Only in answers of this shape. */
  when?: { description: string; holds: (body: unknown) => boolean };
  /** The document and section, and its words. */
  source: string;
  quote: string;
  why: string;
}

export const VOLATILE_MEMBERS: readonly VolatileMember[] = [
  {
    path: '**/meta/lastUpdated',
    source: 'D2 2',
    quote: '`meta` (`id`, `lastUpdated`)',
    why: 'the time the server last changed the record (a FHIR instant, DEC-D1-57): its clock, not its data',
  },
  {
    path: '/id',
    when: {
      description: 'in a Bundle',
      holds: (body) => isRecord(body) && body.resourceType === 'Bundle',
    },
    source: 'D2 2',
    quote: '`id` (on lookups)',
    why: "a Bundle's own id is named without a value: each answer's own",
  },
  {
    path: '/id',
    operations: ['create-patient'],
    source: 'D3 2.4',
    quote: '`id` (assigned on creation)',
    why: 'the server assigns the id of a record it creates',
  },
  {
    path: '/id',
    operations: ['create-condition'],
    source: 'D3 2.5',
    quote: '`id` (assigned)',
    why: 'the server assigns the id of a record it creates',
  },
  {
    path: '**/access_token',
    source: 'D3 4.2',
    quote: '`{access_token, response}`',
    why: 'a token issued per sign-in (masked in every artefact besides)',
  },
  {
    path: '**/refresh_token',
    source: 'D3 4.2',
    quote: 'data: {access_token, refresh_token, expires_in (integer seconds), token_type (typically Bearer)}',
    why: 'a token issued per sign-in (masked in every artefact besides)',
  },
  {
    path: '**/sns_id',
    source: 'D3 4.1',
    quote: 'generated when the event is created or updated',
    why: 'the server generates an event id per event',
  },
];
