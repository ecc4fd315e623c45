/**
 * Discovery documents (Document 1, 1 and 4; DEC-D1-08; DEC-D2-01): one JSON object per service
 * mapping each of its operations' keys to an absolute address. Also the sandbox's own health route.
 */
import type { ServiceId } from '../../spec/types.ts';
import { addressOf } from './addresses.ts';
import { SERVED_OPERATIONS } from './operationTable.ts';
import { ok, type Handler, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

export function discoveryDocument(service: ServiceId, baseUrl: string): Record<string, string> {
  const doc: Record<string, string> = {};
  for (const op of SERVED_OPERATIONS) {
    if (op.service === service) doc[op.discoveryKey] = `${baseUrl}${addressOf(service, op.discoveryKey)}`;
  }
  return doc;
}

/** The handler serving one service's discovery document. */
export const discoveryOf =
  (service: ServiceId): Handler =>
  async (_req, ctx) =>
    ok(discoveryDocument(service, ctx.baseUrl));

export const membershipDiscovery = discoveryOf('membership');
export const claimsDiscovery = discoveryOf('claims');

export const health = async (_req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> =>
  ok({ status: 'ok', faults: ctx.faultNames });
