/**
 * The store behind the sandbox handlers. State belongs to one repository instance (one sandbox
 * instance): acknowledging a batch in one instance never affects another.
 */
import type {
  AddressItem,
  Authorisation,
  Batch,
  Bill,
  BookingLocation,
  BookingPractitioner,
  BookingRole,
  Client,
  CodeSet,
  HospitalClaim,
  Location,
  Member,
  Photo,
  Postcode,
  ReferenceInsurer,
  RegisterPractitioner,
  RegisterRole,
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

  codeSet(name: string): Promise<CodeSet | undefined>;
  /** Treatment locations in id order (lookup and register roles). */
  locations(): Promise<readonly Location[]>;
  referenceInsurers(): Promise<readonly ReferenceInsurer[]>;
  /** Address search items in the seed's order. */
  addressItems(): Promise<readonly AddressItem[]>;
  postcodes(): Promise<readonly Postcode[]>;
  /** Register practitioners in id order. */
  registerPractitioners(): Promise<readonly RegisterPractitioner[]>;
  /** Register roles in id order. */
  registerRoles(): Promise<readonly RegisterRole[]>;
  photo(practitionerId: string): Promise<Photo | undefined>;
  bookingLocations(): Promise<readonly BookingLocation[]>;
  /** Booking practitioners in id order. */
  bookingPractitioners(): Promise<readonly BookingPractitioner[]>;
  /** Booking roles in id order. */
  bookingRoles(): Promise<readonly BookingRole[]>;
}
