/**
 * The sandbox serves the OpenAPI 3.1 export (issue 12; openapi/buildOpenApi.ts): the whole family
 * at `/openapi.json`, each service at `/openapi/<service>.json`. Per-service documents are not
 * served beside each discovery document (`<service base>/openapi.json`): the membership service's
 * discovery document is at the root, so its document would take the family's address. The
 * `servers` entry is the base URL the request was addressed to, so Swagger UI or Prism pointed
 * at the URL call this sandbox.
 */
import { buildOpenApiDocument, SERVICES } from '../../openapi/buildOpenApi.ts';
import type { ServiceId } from '../../spec/types.ts';
import { ok, type Handler } from './types.ts';

/** Where the family's document is served. */
export const OPENAPI_FAMILY_PATH = '/openapi.json';

/** Where one service's document is served. */
export const openApiPathOf = (service: ServiceId): string => `/openapi/${service}.json`;

/** The handler serving one service's document, or the family's without a service. */
export const openApiDocumentOf =
  (service?: ServiceId): Handler =>
  async (_req, ctx) =>
    ok(buildOpenApiDocument(service, { serverUrl: ctx.baseUrl }));

/** Every OpenAPI route of the sandbox: path and handler, the family first. */
export const OPENAPI_ROUTES: readonly { pattern: string; handler: Handler }[] = [
  { pattern: OPENAPI_FAMILY_PATH, handler: openApiDocumentOf() },
  ...SERVICES.map((service) => ({ pattern: openApiPathOf(service), handler: openApiDocumentOf(service) })),
];
