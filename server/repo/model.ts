/**
 * Domain records of the sandbox. Fixtures hold these plain records; the resources the API
 * returns (Coverage, Bundle, PaymentReconciliation ...) are rendered from them in ../resources/.
 * Amounts are numbers in pounds; date-times carry an offset; dates are YYYY-MM-DD.
 */
import type { FeatureName } from '../../spec/types.ts';

export interface Client {
  clientId: string;
  clientSecret: string;
  /** The site this client acts for: SU-SiteId must name it; clearing operations read it. */
  siteId: string;
  features: readonly FeatureName[];
}

export interface Address {
  line: string[];
  city: string;
  district: string;
  state: string;
  postalCode: string;
  country: string;
}

export type CoPayment = { type: 'Monetary value'; amount: number } | { type: 'Percentage'; percent: number };

/** A member's coverage (Document 1, 2.2). */
export interface Member {
  coverageId: string;
  insurer: string;
  insurerName: string;
  insurerEmail?: string;
  insurerPhone?: string;
  membershipNumber: string;
  given: string;
  family: string;
  sex: 'male' | 'female';
  birthDate: string;
  address: Address;
  genderIdentity?: string;
  otherInitials?: string;
  periodStart: string;
  periodEnd: string;
  groupId?: string;
  policyExpired: 'Yes' | 'No';
  expiryDate?: string;
  coverType?: string;
  insuranceSchemePlan?: string;
  doNotReject?: string;
  benefitLimit?: number;
  benefitUsed?: number;
  benefitUsedAsOf?: string;
  memberExcess?: number;
  memberExcessType?: 'Policy period' | 'Each Claim/Episode';
  excessUsed?: number;
  excessUsedAsOf?: string;
  memberCoPayment?: CoPayment;
  currency?: string;
}

/** A pre-authorisation (Document 1, 4.3; DEC-D1-22). */
export interface Authorisation {
  id: string;
  siteId: string;
  insurer: string;
  caseCode: string;
  authCode: string;
  membershipNumber: string;
  readStatus: 'read' | 'unread';
  preAuthStatus: 'Active' | 'Closed' | 'Cancelled';
  actionStatus: 'with insurer' | 'with provider';
  issueDate: string;
  requestedDate: string;
  lastUpdated: string;
  patientName: string;
  procedure: string;
}

/** A remittance summary (Document 1, 2.4). */
export interface RemittanceSummary {
  id: string;
  siteId: string;
  providerCode: string;
  providerName: string;
  insurer: string;
  insurerName: string;
  paymentReference: string;
  created: string;
  lastUpdated: string;
  paymentDate: string;
  processedDate: string;
  amountPaid: number;
  amountDue?: number;
  broughtForward?: number;
  carriedForward?: number;
  totalInvoiced: number;
  totalShortfall?: number;
  totalInvoices: number;
  paymentMethod?: 'Cheque' | 'BACS';
  sortCode?: string;
  accountNumber?: string;
  isExported: boolean;
}

export interface ShortfallReason {
  liabilityType: string;
  category: string;
  reason: string;
  amount: number;
}

/** A remittance detail (Document 1, 2.5). */
export interface RemittanceDetail {
  id: string;
  summaryId: string;
  membershipNumber: string;
  patientName?: { family: string; given: string[]; prefix: string[] };
  invoiceNumber: string;
  invoiceDate: string;
  invoiceTotal: number;
  paidAmount: number;
  previousPaidAmount?: number;
  shortAmount?: number;
  shortfallReasons: ShortfallReason[];
  collectionService?: string;
  dateCompleted: string;
  createdOn: string;
  lastUpdated: string;
  insurerBillNumber: string;
  hospitalNumber: string;
  chClaimNo?: string;
}

export interface ShortPayCode {
  code: string;
  scheme?: string;
}

export interface BatchClaim {
  cuid: { id: string; scope: 'Provider' };
  chClaimNo: string;
  payorClaimNo: string;
  invoiceNo: string;
  invoiceRef?: string;
  claimAmount: number;
  paidAmount: number;
  prevPaidAmount: number;
  shortAmount: number;
  shortPay?: ShortPayCode[];
  shortPayEx?: { shortPay?: ShortPayCode; amount: number; reason: string; collectionService: string }[];
  registrationNo: string;
  patientName?: { title: string; given: string; middle?: string; family: string };
  patientNameUnstruct?: string;
  codesDirectory: { scheme: string; codes: { code: string; description: string }[] }[];
}

export interface BatchProvider {
  providerNo: { id: string; scheme: string };
  providerName: string;
  paymentDetails: {
    paymentReference: string;
    processDate: string;
    paymentDate: string;
    broughtForward: number;
    carriedForward: number;
    amountDue: number;
    amountPaid: number;
    paymentMethod: string;
    bankSortCode?: string;
    bankAccountNo?: string;
  };
  claims: BatchClaim[];
}

/** A pending remittance batch of a site (Document 1, 2.6). `status` undefined = absent. */
export interface Batch {
  id: string;
  siteId: string;
  timestamp: string;
  msgId: string;
  msgIssueDate: string;
  msgSender: string;
  insurer?: string;
  status?: 'TEST' | 'LIVE' | null;
  providers: BatchProvider[];
}

/** A claim whose services were rendered (Document 1, 2.7). */
export interface HospitalClaim {
  claimId: string;
  encounterId: string;
  setting: string;
  patientGiven: string;
  patientFamily: string;
  patientBirthDate: string;
  treatmentSiteName: string;
  insurer: string;
  insurerName: string;
  procedureDateTime: string;
  servicedDate: string;
}

/** A bill (Document 1, 2.8). */
export interface Bill {
  id: string;
  insurer: string;
  archived: boolean;
  claimStatus: string;
  cuid: string;
  membershipNumber: string;
  invoiceNumber: string;
  invoiceDate: string;
  invoiceReference: string;
  eventReference: string;
  created: string;
  priority: string;
  currency: string;
  totalNet: number;
  totalGross: number;
  companyPaid: number;
  excessPaid: number;
  doubleInsurance: boolean;
  thirdParty: boolean;
  packageDeal: boolean;
  patient: {
    given: string;
    family: string;
    gender: 'male' | 'female';
    birthDate: string;
    hospitalNumber: string;
    nhsNumber: string;
  };
  gp: { gpCode: string; practiceCode: string; given: string; family: string };
  encounter: {
    inpatientNights: number;
    setting: string;
    firstAwareDate: string;
    firstGpVisitDate: string;
    start: string;
    end: string;
    consultant: string;
    diagnosisCode: string;
    diagnosisText: string;
  };
  serviceProvider: string;
  diagnosisScheme: string;
  claimSource: string;
  signatureRequired: boolean;
}

// ---------------------------------------------------------------------------------------------
// Document 2: reference data, address, practice register, booking.
// ---------------------------------------------------------------------------------------------

/** One item of a master code set (Document 2, 2.2). */
export interface CodeItem {
  code: string;
  display: string;
  /** Scheme of the item (ISC, CCSD, BUPA, ICD9, ICD10); undefined for the practitioner sets. */
  scheme?: string;
  /** For practitioner-specialty items: the profession (practitioner-role code) they belong to. */
  profession?: string;
  /** `requiresProcedure` extension value (`Y` / `N`), when the item carries one. */
  requiresProcedure?: 'Y' | 'N';
  lastUpdated: string;
}

export interface CodeSet {
  name: string;
  items: readonly CodeItem[];
}

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** A treatment location: served by the location lookup (4.3) and referenced by register roles (4.11). */
export interface Location {
  id: string;
  name: string;
  /** Internal location type (the lookup's `type` filter): P practice, H hospital, M mobile service. */
  type: 'P' | 'H' | 'M';
  line: string[];
  postalCode: string;
  position?: GeoPoint;
  lastUpdated: string;
}

export interface RegisterInsurer {
  code: string;
  name: string;
  providerNumber: string;
  /** Recognition status code: Y recognised, N not recognised, P pending. */
  status: 'Y' | 'N' | 'P';
}

/** A practitioner of the private-practice register (4.9); the lookup (4.2) shows its header. */
export interface RegisterPractitioner {
  id: string;
  active: boolean;
  prefix: string;
  given: string[];
  family: string;
  gender: 'male' | 'female' | 'other' | 'unknown';
  /** DD.MM.YYYY */
  birthDate: string;
  profession: string;
  specialties: string[];
  subspecialties: string[];
  insurers: RegisterInsurer[];
  line: string[];
  postalCode: string;
  phone: string;
  email: string;
  onlineBooking: boolean;
  indemnityStatus: string;
  regulator: { body: 'GMC' | 'HCPC' | 'NMC'; reference: string; registrationDate: string };
  qualifications: { id: string; code: string; display: string; start: string }[];
  lastUpdated: string;
}

/** A profile photo (4.10): the decoded bytes and their media type. */
export interface Photo {
  practitionerId: string;
  contentType: string;
  title: string;
  data: Buffer;
}

/** A practitioner at a location (4.11). */
export interface RegisterRole {
  id: string;
  practitionerId: string;
  locationId: string;
  specialties: string[];
  agesTreated: string[];
  lastUpdated: string;
}

/** Reference-data insurer (Organization, 4.4) with its control parameters (4.5). */
export interface ReferenceInsurer {
  id: string;
  /** Sequence id of the control-parameters Organization. */
  sequence: string;
  code: string;
  name: string;
  live: 'Y' | 'N';
  insurerType: 'MII' | 'PMI';
  edi: 'Yes' | 'No';
  category: string;
  lastUpdated: string;
  control: {
    acceptsEDIClaims: 'Y' | 'N';
    requiresDiagnosis: 'Y' | 'N';
    synchronousME: 'Y' | 'N';
    stvEnabled: 'Y' | 'N' | 'E';
  };
}

/** An item of the address search (4.6); items of type Address also carry the retrieved fields (4.7). */
export interface AddressItem {
  key: string;
  addressType: 'Street' | 'Building' | 'Postcode' | 'Address';
  /** Keys of the items this one is found under when drilling down; undefined at the top level. */
  containers?: readonly string[];
  formattedAddress: string;
  address?: RetrievedAddress;
}

export interface RetrievedAddress {
  line1: string;
  line2: string;
  line3: string;
  line4: string;
  buildingName: string;
  street: string;
  provinceName: string;
  postcode: string;
  city: string;
  district: string;
  country: string;
  countryCode3: string;
  latitude: string;
  longitude: string;
}

/** A postcode known to geo-coding and validation (4.8). */
export interface Postcode {
  postcode: string;
  formattedAddress: string;
  latitude: string;
  longitude: string;
}

/** A location of the booking service (internal: booking roles reference it). */
export interface BookingLocation {
  id: string;
  name: string;
  postalCode: string;
  position: GeoPoint;
}

/** A practitioner local to the booking service (4.12). */
export interface BookingPractitioner {
  id: string;
  active: boolean;
  prefix: string;
  given: string[];
  family: string;
  gender: 'male' | 'female' | 'other' | 'unknown';
  siteId: string;
  siteName: string;
  registeredNumber: string;
  profession: string;
  channels: string[];
  lastUpdated: string;
}

/** A practitioner role of the booking service (4.13). */
export interface BookingRole {
  id: string;
  externalId: string;
  active: boolean;
  practitionerId: string;
  locationId: string;
  lastUpdated: string;
}

// ---------------------------------------------------------------------------------------------
// Document 3: accounts, sign-on, diary, patients, contract pricing.
// ---------------------------------------------------------------------------------------------

/** What an access token stands for (DEC-D3-03): a client, a user signed in through a client, or the diary. */
export type TokenKind = 'client' | 'user' | 'diary';

/** An issued access token. */
export interface AccessGrant {
  token: string;
  kind: TokenKind;
  /** The OAuth client the token was issued to; undefined for diary tokens. */
  clientId?: string;
  userId?: string;
  /** The sign-in session of a user token: its refresh token and every access token issued under it. */
  sessionId?: string;
}

/** A live refresh token of a user session. */
export interface RefreshGrant {
  refreshToken: string;
  clientId: string;
  userId: string;
  sessionId: string;
}

export interface UserTokens {
  accessToken: string;
  refreshToken: string;
}

export type AccountStatus = 'ACTIVE' | 'INACTIVE';

/** Site type codes (Document 3, 2.1). */
export type SiteType = 'c' | 'g' | 'h' | 'i' | 'm' | 'p' | 's' | 't';

/** A site of the accounts service (Document 3, 2.2). */
export interface Site {
  id: string;
  name: string;
  identifier: string;
  description: string;
  status: AccountStatus;
  type: SiteType;
  parentId?: string;
}

/** A user of the accounts service; `password` is the sandbox's demo credential (DEC-D3-03). */
export interface User {
  id: string;
  username: string;
  password: string;
  title: string;
  given: string;
  family: string;
  middlename: string;
  email: string;
  status: AccountStatus;
  homeSiteId: string;
  /** Sites the user is connected to; their child sites are reachable too (v2, site access). */
  siteIds: readonly string[];
  /** The role whose features the user holds; undefined = no features assigned. */
  roleId?: string;
  /** `YYYY-MM-DD HH:MM:SS` */
  creationDate: string;
  lastUpdated: string;
}

/** The client account behind a client-credentials client (Document 3, 7). */
export interface ClientAccount {
  id: string;
  clientId: string;
  name: string;
  status: AccountStatus;
  /** Users the client account may act for (SU-UserId). */
  userIds: readonly string[];
}

export interface Feature {
  id: string;
  name: string;
  code: string;
  identifier: string;
  description: string;
  status: AccountStatus;
}

/** A role with its features (Document 3, 2.1, 2.2). */
export interface Role {
  roleId: string;
  code: string;
  name: string;
  status: AccountStatus;
  features: readonly Feature[];
  clientassignable: boolean;
  siteassignable: boolean;
  userassignable: boolean;
  accountmanagerassignable: boolean;
  publicaccess: boolean;
  productGroup: { id: string; name: string; identifier: string; description: string };
  createdby: string;
}

/** A site's subscription (Document 3, 2.2). */
export interface Subscription {
  siteId: string;
  subscriptionId: string;
  planId: string;
  planName: string;
  planDescription: string;
  planSlab: number;
  siteTypes: readonly SiteType[];
}

/** A code of the product and service page, exchanged for user info (4.1). */
export interface UserInfoCode {
  code: string;
  userId: string;
  siteId: string;
}

/** An accounts event (Document 3, 2.2, 6); the resource is a site event. */
export interface AccountEvent {
  snsId: string;
  eventId: number;
  eventType: string;
  eventStatus: string;
  siteId: string;
  creationDate: string;
  createdBy: string;
  accountId: string;
  accountName: string;
}

/** What the identity provider knows of a sign-in through a client redirect URI (4.2). */
export interface IdpSignIn {
  clientId: string;
  idp: string;
  redirectUri: string;
  outcome: 'linked' | 'not-signed-in' | 'unlinked';
  userId?: string;
}

/** Diary post-auth outcomes by code (4.3): 1 Unauthorized, 2 Ok, 3 SiteNotMapped. */
export interface DiaryCode {
  code: string;
  response: 1 | 2 | 3;
}

export interface DiaryLists {
  episodeTypes: readonly { id: number; type: string; description: string }[];
  appointmentStatuses: readonly { id: number; status: string }[];
  recurrenceTypes: readonly { id: number; type: string; description: string }[];
}

/** A FHIR resource stored as the caller sent it (patients and conditions echo every member). */
export type StoredResource = { resourceType: string; id: string } & Record<string, unknown>;

/** A patient (Document 3, 2.4) of one site. */
export interface PatientRecord {
  siteId: string;
  resource: StoredResource & { active: boolean };
}

/** A condition (Document 3, 2.5) of one site. */
export interface ConditionRecord {
  siteId: string;
  patientId: string;
  resource: StoredResource;
}

export type PayorType = 'I' | 'C';

/** A payor of a site (Document 3, 2.6, 4.5): an insurer (`Organization/<payor>`) or a contact (`Person/<contact>`). */
export interface Payor {
  /** The payor's contract id (`providerGroup` of the delete operations). */
  contractId: string;
  siteId: string;
  type: PayorType;
  payorId: string;
  display: string;
  lastUpdated: string;
}

export type PriceSubType = 'FEE_SCHEDULE' | 'PRACTITIONER_BESPOKE_CONTRACT' | 'SELF_PAY';

export interface ProcedurePrice {
  code: string;
  display: string;
  fee?: number;
}

/** A service (ISC code) of a price contract, with the procedures priced under it. */
export interface ServicePrice {
  code: string;
  display: string;
  fee?: number;
  procedures: ProcedurePrice[];
}

/** A pricing contract of a site: a payor fee schedule, a practitioner bespoke contract or self-pay. */
export interface PriceContract {
  id: string;
  siteId: string;
  subType: PriceSubType;
  payorType: PayorType;
  payorId: string;
  practitioner?: { id: string; display: string };
  locationId?: string;
  isESTV: 'Y' | 'N';
  lastUpdated: string;
  services: ServicePrice[];
}
