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
  /**
   * How the suite talks to the target, and how much it keeps of what it receives (docs/hostile-targets.md).
   */
  http?: {
    /**
     * Time budget of one call, from sending to the last byte of the answer, redirects included (default 10000).
     */
    timeoutMs?: number;
    /**
     * Bytes of an answer that are read and judged; the rest is not read (default 5242880, 5 MiB).
     */
    maxResponseBytes?: number;
    /**
     * Consecutive time-outs or transport failures on one service after which its remaining calls are not sent and recorded as error (default 3; 0 never stops a service).
     */
    stopAfterConsecutiveFailures?: number;
    /**
     * Bytes of one request or answer body kept as evidence in the report, after masking; longer bodies are cut with a note (default 65536, 64 KiB).
     */
    maxEvidenceBytes?: number;
    /**
     * Bytes of body text the whole run keeps as evidence; once used up, further bodies are dropped from the evidence with a note (default 33554432, 32 MiB).
     */
    maxRunEvidenceBytes?: number;
    /**
     * Requests the whole run starts per second at most, evenly spaced and shared among the suite workers (default: no limit). Also --max-requests-per-second.
     */
    maxRequestsPerSecond?: number;
    /**
     * Calls the whole run has in flight at once at most, shared among the suite workers (default: no limit). Also --concurrency.
     */
    concurrency?: number;
    /**
     * Times the whole run may send a call again after the target refused it for load (HTTP 429, or 503 with Retry-After), having waited what Retry-After asks; a call still refused when none is left is recorded as error, never judged (default 1000; 0 never sends again; at most 10 per call).
     */
    loadRetries?: number;
    /**
     * Milliseconds the whole run may wait in all before sending calls again after load refusals, summed over the calls (default 600000, 10 minutes).
     */
    loadRetryWaitMs?: number;
    /**
     * Longest single wait after a load refusal; a longer Retry-After is waited only this long before the call is sent again (default 30000).
     */
    maxRetryAfterMs?: number;
    /**
     * PEM file of the CA certificates (one or more) that signed the target's certificate, trusted besides Node's default roots: for a staging server with a private or self-signed certificate. A relative path is read from the config file's folder. NODE_EXTRA_CA_CERTS also works, but only when this setting is absent.
     */
    caFile?: string;
    /**
     * PEM file of the client certificate presented to a target that demands one (mutual TLS); give http.clientKeyFile with it. A relative path is read from the config file's folder.
     */
    clientCertFile?: string;
    /**
     * PEM file of the private key of http.clientCertFile. When it is encrypted, http.clientKeyPassphraseEnv names the environment variable holding its passphrase (never written in this file). A relative path is read from the config file's folder.
     */
    clientKeyFile?: string;
    /**
     * Name of the environment variable holding the passphrase of an encrypted http.clientKeyFile.
     */
    clientKeyPassphraseEnv?: string;
    /**
     * Address of the http or https proxy every call goes through (http://host:port), in place of the environment's HTTPS_PROXY and HTTP_PROXY; NO_PROXY still exempts the hosts it lists. Without credentials: a proxy that wants them is given with them in HTTPS_PROXY and HTTP_PROXY instead. When absent, HTTPS_PROXY (calls to https addresses; HTTP_PROXY when it is not set), HTTP_PROXY (calls to http addresses) and NO_PROXY are honoured, lower-case names first.
     */
    proxy?: string;
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
