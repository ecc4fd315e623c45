/** Remittance batch header (list entry) and batch object (Document 1, 2.6). */
import type { Batch } from '../repo/model.ts';

export function batchHeaderOf(b: Batch): Record<string, unknown> {
  return { resourceType: 'Bundle', id: b.id, timestamp: b.timestamp };
}

export function batchObjectOf(b: Batch): Record<string, unknown> {
  return {
    msgId: b.msgId,
    msgIssueDate: b.msgIssueDate,
    msgSender: b.msgSender,
    msgRecipient: b.siteId,
    ...(b.insurer !== undefined ? { insurer: b.insurer } : {}),
    ...(b.status !== undefined ? { status: b.status } : {}),
    providers: b.providers,
  };
}
