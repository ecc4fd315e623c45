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
