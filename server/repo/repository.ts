/**
 * The store behind the sandbox handlers. State belongs to one repository instance (one sandbox
 * instance): acknowledging a batch in one instance never affects another.
 */
import type {
  AccessGrant,
  AccountEvent,
  AddressItem,
  Authorisation,
  Batch,
  Bill,
  BookingLocation,
  BookingPractitioner,
  BookingRole,
  Client,
  ClientAccount,
  CodeSet,
  ConditionRecord,
  DiaryCode,
  DiaryLists,
  HospitalClaim,
  IdpSignIn,
  Location,
  Member,
  PatientRecord,
  Payor,
  Photo,
  Postcode,
  PriceContract,
  RefreshGrant,
  ReferenceInsurer,
  RegisterPractitioner,
  RegisterRole,
  RemittanceDetail,
  RemittanceSummary,
  Role,
  Site,
  Subscription,
  User,
  UserInfoCode,
  UserTokens,
} from './model.ts';

/** Kinds of id the repository assigns to created records. */
export type IdKind = 'patient' | 'condition' | 'telecom' | 'address' | 'evidence' | 'payor' | 'price';

export interface Repository {
  client(clientId: string): Promise<Client | undefined>;
  /** Issues a new opaque token for the client and remembers it. */
  issueToken(clientId: string): Promise<string>;
  /** The client of a live client or user access token (diary tokens have none). */
  clientForToken(token: string): Promise<Client | undefined>;

  members(): Promise<readonly Member[]>;
  authorisations(siteId: string): Promise<readonly Authorisation[]>;

  remittanceSummaries(siteId: string): Promise<readonly RemittanceSummary[]>;
  remittanceSummary(siteId: string, id: string): Promise<RemittanceSummary | undefined>;
  remittanceDetails(summaryId: string): Promise<readonly RemittanceDetail[]>;

  /** Pending batches of one site, or of every site when `siteId` is undefined; id order. */
  pendingBatches(siteId: string | undefined): Promise<readonly Batch[]>;
  /** The pending batch with this id, if it belongs to the site (to any site when `siteId` is undefined). */
  pendingBatch(siteId: string | undefined, id: string): Promise<Batch | undefined>;
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

  // Document 3: tokens (DEC-D3-03, -06).
  /** Opens a sign-in session of the user through the client: an access and a refresh token. */
  issueUserTokens(clientId: string, userId: string): Promise<UserTokens>;
  /** A new access token in the refresh token's session; undefined when the refresh token is not live. */
  refreshUserTokens(refreshToken: string): Promise<UserTokens | undefined>;
  issueDiaryToken(): Promise<string>;
  /** A live access token of any kind. */
  accessGrant(token: string): Promise<AccessGrant | undefined>;
  refreshGrant(refreshToken: string): Promise<RefreshGrant | undefined>;
  /** False when no live access token has this value. */
  revokeAccessToken(token: string): Promise<boolean>;
  /** Revokes the refresh token only; answers its session, or undefined when it was not live. */
  revokeRefreshToken(refreshToken: string): Promise<string | undefined>;
  /** Revokes the session's refresh token and every access token issued under it. */
  revokeSession(sessionId: string): Promise<void>;
  /** Makes a refresh grant live again (the refresh-revoke-keeps-refresh fault: a server that honours what it revoked). */
  restoreRefreshGrant(grant: RefreshGrant): Promise<void>;

  // Document 3: accounts, sign-on and diary fixtures.
  /** Sites in id order. */
  sites(): Promise<readonly Site[]>;
  users(): Promise<readonly User[]>;
  clientAccounts(): Promise<readonly ClientAccount[]>;
  roles(): Promise<readonly Role[]>;
  subscriptions(): Promise<readonly Subscription[]>;
  userInfoCodes(): Promise<readonly UserInfoCode[]>;
  events(): Promise<readonly AccountEvent[]>;
  idpSignIns(): Promise<readonly IdpSignIn[]>;
  diaryCodes(): Promise<readonly DiaryCode[]>;
  diaryLists(): Promise<DiaryLists>;

  // Document 3: patients and conditions, per site.
  /** A new id of the kind (`PAT-1001`, `COND-1001` ...), unique within the instance. */
  newId(kind: IdKind): Promise<string>;
  patient(siteId: string, id: string): Promise<PatientRecord | undefined>;
  savePatient(record: PatientRecord): Promise<void>;
  /** Removes the patient and its conditions; false when the site has no such patient. */
  removePatient(siteId: string, id: string): Promise<boolean>;
  condition(siteId: string, id: string): Promise<ConditionRecord | undefined>;
  saveCondition(record: ConditionRecord): Promise<void>;
  removeCondition(siteId: string, id: string): Promise<boolean>;

  // Document 3: contract pricing, per site.
  /** The site's payors in the order they were added. */
  payors(siteId: string): Promise<readonly Payor[]>;
  /** Adds the payor, or replaces the one with its contract id. */
  savePayor(payor: Payor): Promise<void>;
  removePayor(siteId: string, contractId: string): Promise<boolean>;
  /** Price contracts of one site, or of every site when `siteId` is undefined; id order. */
  priceContracts(siteId: string | undefined): Promise<readonly PriceContract[]>;
  /** Adds the price contract, or replaces the one with its id. */
  savePriceContract(contract: PriceContract): Promise<void>;
  removePriceContract(id: string): Promise<boolean>;
}
