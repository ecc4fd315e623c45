/* Generated from core/config.schema.json by `npm run gen:config-types`; do not edit by hand. */

export type Auth =
  | {
      type: 'client-credentials';
      tokenUrl: string;
      clientIdEnv: EnvName;
      clientSecretEnv: EnvName;
    }
  | {
      type: 'password';
      tokenUrl: string;
      usernameEnv: EnvName;
      passwordEnv: EnvName;
      clientIdEnv: EnvName;
      clientSecretEnv: EnvName;
    }
  | {
      type: 'bearer';
      tokenEnv: EnvName;
    };
export type EnvName = string;

export interface ConformanceRunConfiguration {
  $schema?: string;
  target?: string;
  services?: {
    membership?: Service;
    claims?: Service;
    reference?: Service;
    address?: Service;
    register?: Service;
    booking?: Service;
    accounts?: Service;
    auth?: Service;
    diary?: Service;
    patients?: Service;
    contracts?: Service;
  };
  auth?: Auth;
  credentials?: {
    [k: string]: Auth;
  };
  basic?: {
    [k: string]: {
      clientIdEnv: EnvName;
      clientSecretEnv: EnvName;
    };
  };
  siteId?: string;
  features?: ('Advanced_Search_1_0' | 'Advanced_Filtering_And_Sorting_1_0')[];
  reservedOperations?: 'include' | 'omit';
  /**
   * Who ran the suite, for whom and against what; shown in the report header as stated here.
   */
  attestation?: {
    organisation?: string;
    product?: string;
    environment?: 'staging' | 'production';
    person?: string;
  };
  http?: {
    timeoutMs?: number;
    maxResponseBytes?: number;
  };
  fixtures?: Fixtures;
}
export interface Service {
  discovery: string;
}
export interface Fixtures {
  findMemberV2?: {
    single?: MemberSearch;
    none?: MemberSearch;
    multipleResolvedByRefine?: MemberSearch;
    multipleAfterRefine?: MemberSearch;
  };
  findMemberV1?: {
    single?: MemberSearch;
    multiple?: MemberSearch;
    none?: MemberSearch;
  };
  authorisation?: {
    authCode?: string;
    caseCode?: string;
    membershipNumber?: string;
    insurerIdentifier?: string;
  };
  remittance?: {
    summaryId?: string;
  };
  hospitalClaims?: {
    dateCompleted?: string;
    search?: {
      dateCompleted: string;
      treatmentSiteName: string;
      patientLastName: string;
      patientDateOfBirth: string;
    };
  };
  bills?: {
    insurerid?: string;
    membershipNumber?: string;
    invoiceNumber?: string;
    billId?: string;
    isArchived?: 'true' | 'false';
  };
  batches?: {
    ackId?: string;
    foreignBatchId?: string;
  };
  codeSets?: {
    profession?: string;
  };
  lookups?: {
    practitionerText?: string;
    locationText?: string;
    locationType?: string;
    insurerId?: string;
  };
  address?: {
    searchText?: string;
    postcode?: string;
    invalidPostcode?: string;
  };
  register?: {
    photoPractitionerId?: string;
    near?: {
      lat: number;
      lon: number;
      distanceKm: number;
    };
  };
  booking?: {
    practitionerId?: string;
    practitionerRoleId?: string;
  };
  accounts?: {
    userId?: string;
    userInfoCode?: string;
    snsId?: string;
    unconnectedSiteId?: string;
    inactiveSiteId?: string;
    siteWithoutUsers?: string;
    inaccessibleUserId?: string;
    siteSearch?: string;
    childSiteId?: string;
  };
  tokenDetails?: {
    idp?: string;
    redirectUri?: string;
    notSignedInRedirectUri?: string;
    unlinkedRedirectUri?: string;
  };
  diary?: {
    validCode?: string;
    invalidCode?: string;
    unmappedSiteCode?: string;
  };
  patients?: {
    inactivePatientId?: string;
    versionHeader?: {
      name: string;
      value: string;
    };
  };
  contracts?: {
    freshSiteId?: string;
    location?: string;
    payor?: string;
    serviceCode?: string;
  };
}
export interface MemberSearch {
  insurerIdentifier: string;
  refine?: {
    [k: string]: string;
  };
  [k: string]:
    | string
    | {
        [k: string]: string;
      }
    | undefined;
}
