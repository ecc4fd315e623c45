/**
 * Shared request guards (Document 1, 1 and 5; DEC-D1-10, -15, -21): bearer token, SU-SiteId,
 * form content type and feature gates (Document 2, 5: bearer token only). What an operation
 * enforces is read from its header list in spec/operations.ts.
 */
import type { FeatureName } from '../../spec/types.ts';
import type { Client } from '../repo/model.ts';
import { ApiError } from './errors.ts';
import { servedOperation } from './operationTable.ts';
import type { SandboxContext, SandboxRequest } from './types.ts';

export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

export interface Caller {
  client: Client;
  /** The site the request acts for: the SU-SiteId header, or the token's site. */
  siteId: string;
  /** The form body, for operations whose parameters travel as form fields. */
  form: URLSearchParams;
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** The token of a `Bearer` Authorization header. */
export const bearerOf = (req: Pick<SandboxRequest, 'headers'>): string | undefined =>
  /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];

export async function requireClient(req: SandboxRequest, ctx: SandboxContext): Promise<Client> {
  const token = bearerOf(req);
  const client = token === undefined ? undefined : await ctx.repo.clientForToken(token);
  if (client) return client;
  throw new ApiError(
    401,
    'MSG_UNAUTHORIZED',
    token !== undefined ? 'The access token is unknown or expired' : 'Expected header Authorization: Bearer <token>',
    { 'www-authenticate': 'Bearer' },
  );
}

export function requireSite(req: SandboxRequest, client: Client): string {
  const site = (req.headers['su-siteid'] ?? '').trim();
  if (site === '') throw new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', 'Header SU-SiteId is required');
  if (site !== client.siteId) throw new ApiError(403, 'MSG_FORBIDDEN', `The access token may not act for site ${site}`);
  return site;
}

export function requireForm(req: SandboxRequest): URLSearchParams {
  if (mediaType(req.headers['content-type']) !== FORM_MEDIA_TYPE || req.form === undefined) {
    throw new ApiError(
      400,
      'MSG_CANT_PARSE_CONTENT',
      `Expected Content-Type ${FORM_MEDIA_TYPE}, received ${req.headers['content-type'] ?? '<none>'}`,
    );
  }
  return req.form;
}

/** Applies every guard the operation's header list marks as enforced, in a fixed order. */
export async function authorise(req: SandboxRequest, ctx: SandboxContext, operationId: string): Promise<Caller> {
  const op = servedOperation(operationId);
  const enforced = (name: string) => op.headers.some((h) => h.enforced && h.name.toLowerCase() === name.toLowerCase());
  const client = await requireClient(req, ctx);
  const siteId = enforced('SU-SiteId') ? requireSite(req, client) : client.siteId;
  // The form media type is read whether or not the header is marked enforced (DEC-D1-73): the reference server refuses a form POST without it.
  const formPost = op.headers.some((h) => h.name === 'Content-Type' && h.value === FORM_MEDIA_TYPE);
  const form = formPost ? requireForm(req) : new URLSearchParams();
  return { client, siteId, form };
}

/** Feature gate of a parameter (DEC-D1-15): every listed feature is needed. */
export function requireFeatures(client: Client, features: readonly FeatureName[] | undefined, parameter: string): void {
  const missing = (features ?? []).filter((f) => !client.features.includes(f));
  if (missing.length > 0) {
    throw new ApiError(
      422,
      'MSG_PARAM_INVALID',
      `Parameter ${parameter} needs feature ${missing.join(' and ')}, which the caller does not have`,
    );
  }
}
