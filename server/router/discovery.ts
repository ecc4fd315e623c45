/**
 * Discovery documents (Document 1, 1 and 4; DEC-D1-08): one JSON object per service mapping
 * each of its operations' keys to an absolute address. Also the sandbox's own health route.
 */
import { operations } from '../../spec/operations.ts';
import type { ServiceId } from '../../spec/types.ts';
import { addressOf } from './addresses.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

export function discoveryDocument(service: ServiceId, baseUrl: string): Record<string, string> {
  const doc: Record<string, string> = {};
  for (const op of operations) {
    if (op.document === 'D1' && op.service === service) doc[op.discoveryKey] = `${baseUrl}${addressOf(op.discoveryKey)}`;
  }
  return doc;
}

export const membershipDiscovery = async (_req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> =>
  ok(discoveryDocument('membership', ctx.baseUrl));

export const claimsDiscovery = async (_req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> =>
  ok(discoveryDocument('claims', ctx.baseUrl));

export const health = async (_req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> =>
  ok({ status: 'ok', faults: ctx.faults.list() });
