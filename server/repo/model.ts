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
  patient: { given: string; family: string; gender: 'male' | 'female'; birthDate: string; hospitalNumber: string; nhsNumber: string };
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
  control: { acceptsEDIClaims: 'Y' | 'N'; requiresDiagnosis: 'Y' | 'N'; synchronousME: 'Y' | 'N'; stvEnabled: 'Y' | 'N' | 'E' };
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
