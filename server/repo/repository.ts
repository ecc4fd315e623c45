/**
 * The store behind the sandbox handlers. State belongs to one repository instance (one sandbox
 * instance): acknowledging a batch in one instance never affects another.
 */
import type {
  Authorisation,
  Batch,
  Bill,
  Client,
  HospitalClaim,
  Member,
  RemittanceDetail,
  RemittanceSummary,
} from './model.ts';

export interface Repository {
  client(clientId: string): Promise<Client | undefined>;
  /** Issues a new opaque token for the client and remembers it. */
  issueToken(clientId: string): Promise<string>;
  clientForToken(token: string): Promise<Client | undefined>;

  members(): Promise<readonly Member[]>;
  authorisations(siteId: string): Promise<readonly Authorisation[]>;

  remittanceSummaries(siteId: string): Promise<readonly RemittanceSummary[]>;
  remittanceSummary(siteId: string, id: string): Promise<RemittanceSummary | undefined>;
  remittanceDetails(summaryId: string): Promise<readonly RemittanceDetail[]>;

  /** Pending batches of one site, or of every site when `siteId` is undefined; id order. */
  pendingBatches(siteId: string | undefined): Promise<readonly Batch[]>;
  pendingBatch(id: string): Promise<Batch | undefined>;
  /** Receipts a pending batch; false when no pending batch has this id. */
  removeBatch(id: string): Promise<boolean>;

  hospitalClaims(): Promise<readonly HospitalClaim[]>;
  bills(): Promise<readonly Bill[]>;
  bill(id: string): Promise<Bill | undefined>;
}
