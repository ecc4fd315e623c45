/* Generated from core/config.schema.json by `npm run gen:config-types`; do not edit by hand. */

/**
 * A credential: an OAuth grant at a token endpoint (client-credentials or password), or a ready token. Each *Env member names an environment variable; the values are never written in this file.
 */
export type Auth =
  | {
      /**
       * OAuth client-credentials grant.
       */
      type: 'client-credentials';
      /**
       * Token endpoint (http or https; may hold {target}). When absent, the top-level tokenUrl.
       */
      tokenUrl?: string;
      clientIdEnv: EnvName;
      clientSecretEnv: EnvName;
    }
  | {
      /**
       * OAuth password grant.
       */
      type: 'password';
      /**
       * Token endpoint (http or https; may hold {target}). When absent, the top-level tokenUrl.
       */
      tokenUrl?: string;
      usernameEnv: EnvName;
      passwordEnv: EnvName;
      clientIdEnv: EnvName;
      clientSecretEnv: EnvName;
    }
  | {
      /**
       * A ready token.
       */
      type: 'bearer';
      tokenEnv: EnvName;
    };
/**
 * Name of an environment variable (letters, digits and _, not starting with a digit). Every variable a config names must be set when the run starts: all the missing ones are reported at once.
 */
export type EnvName = string;

/**
 * Configuration of a conformance run: the target's addresses, how the run obtains its tokens (secrets only through environment variables), the features and data the target holds, and how calls are made. Reference: docs/config.md.
 */
export interface ConformanceRunConfiguration {
  /**
   * Path or URL of this JSON Schema (core/config.schema.json), so that editors complete and explain the settings; ignored by the run.
   */
  $schema?: string;
  /**
   * Base URL of the server under test (http or https). --target overrides it. It fills the placeholder {target} in every address of this file.
   */
  target?: string;
  /**
   * Where each service publishes its discovery document (the JSON object naming the addresses of its operations by key). Write the shared part once in base and each service's path after it; a service not named here has its document at base + "/.well-known/api-configuration".
   */
  services?: {
    /**
     * Address the discovery paths below are appended to (default "{target}"); may hold {target}. Set it when the services live elsewhere than the target, for instance under "https://api.staging.example/v2": one edit for every service.
     */
    base?: string;
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
  /**
   * Token endpoint of every credential (auth, credentials) that names no tokenUrl of its own, written once, for instance "{target}/oauth/token" (the sandbox's). May hold {target}.
   */
  tokenUrl?: string;
  /**
   * Further named credentials, for the steps that need a token of another kind than the run's (DEC-D3-03). A step whose credential is not named here is skipped (credential-configured). Other names are allowed and unused.
   */
  credentials?: {
    user?: Auth;
    userWithoutFeatures?: Auth;
    client?: Auth;
    clientWithoutAccount?: Auth;
    clientInactive?: Auth;
    [k: string]: Auth | undefined;
  };
  /**
   * Named client ids and secrets sent as Authorization: Basic (Document 3, 4.2, 5). The name the suite uses is client: revoke and the token-details steps past client authentication need it, and are skipped (credential-configured), never sent, without it.
   */
  basic?: {
    client?: BasicCredential;
    [k: string]: BasicCredential | undefined;
  };
  /**
   * The site the run acts for: the value of the SU-SiteId header (Document 1, 1 and 5), and the site whose payors, users and subscriptions are listed. Its credentials must have access to it.
   */
  siteId?: string;
  /**
   * Features the run's credentials have on the target (Document 1, 4.4: Advanced_Search_1_0, Advanced_Filtering_And_Sorting_1_0). Fields that need a feature not listed are not sent, and their checks are skipped (DEC-D1-15).
   *
   * Items: A feature name of the documents.
   */
  features?: ('Advanced_Search_1_0' | 'Advanced_Filtering_And_Sorting_1_0')[];
  /**
   * The operations the documents reserve for the operator's own products (remittance batches, hospital claims, bills, remittance search; insurers and their control parameters, address and postcode, register, booking; accounts, diary, sign-on, contracts): "include" tests them (default, the operator's CI); "omit" reports them as omit (a partner's run, DEC-D1-33, DEC-D2-33, DEC-D3-18).
   */
  reservedOperations?: 'include' | 'omit';
  /**
   * Who ran the suite, for whom and against what; shown in the report header as stated here.
   */
  attestation?: {
    /**
     * The organisation that ran the suite (or whose product is judged), as it wants to be named.
     */
    organisation?: string;
    /**
     * The product and version under test.
     */
    product?: string;
    /**
     * Which environment of the product was judged.
     */
    environment?: 'staging' | 'production';
    /**
     * Who ran it (a name or role); it is shown in the report as written here.
     */
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
     * Calls the whole run has in flight at once at most, shared among the suite workers (default 8). Independent requests (the coverage phase and generated cases of an operation that changes nothing, the operations of other suite files) are sent together up to this many; what must stay in order (a state sequence, a create before its read) stays in order, and the results are the same whatever the value. Also --concurrency.
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
    clientKeyPassphraseEnv?: EnvName;
    /**
     * Address of the http or https proxy every call goes through (http://host:port), in place of the environment's HTTPS_PROXY and HTTP_PROXY; NO_PROXY still exempts the hosts it lists. Without credentials: a proxy that wants them is given with them in HTTPS_PROXY and HTTP_PROXY instead. When absent, HTTPS_PROXY (calls to https addresses; HTTP_PROXY when it is not set), HTTP_PROXY (calls to http addresses) and NO_PROXY are honoured, lower-case names first.
     */
    proxy?: string;
  };
  /**
   * Settings of `conformance compare`, the differential run (the candidate's config and the reference's both apply): what is left out when two targets' answers are compared, besides the noise learnt from a second reference (`--second`) or, without one, the members the documents make volatile.
   */
  compare?: {
    /**
     * Paths of the answers left out of the comparison, and everything under them: a JSON pointer into the body with `*` for any array index and `**` for any number of members (`/entry/* /resource/meta/versionId`, `** /lastUpdated`), `status`, `header:NAME`, `exchange` (a call made by one run only), or `""` (the whole body). An item is a path, left out on every operation, or `{"path": "/total", "operations": ["search-bills"], "reason": "..."}`, left out on those operations with the reason the report shows. The report lists each with how many differences it left out.
     *
     * Items: A path left out on every operation, or one with the operations it applies to and why.
     */
    ignore?: (
      | string
      | {
          /**
           * The path, as a path left out on every operation is written.
           */
          path: string;
          /**
           * Operation ids (`conformance operations` lists them) it applies to; every operation when absent.
           *
           * @minItems 1
           *
           * Items: An operation id, such as search-bills.
           */
          operations?: [string, ...string[]];
          /**
           * Why it is left out, shown in the comparison report ("the candidate numbers bills otherwise").
           */
          reason?: string;
        }
    )[];
  };
  fixtures?: Fixtures;
}
/**
 * A service's discovery document.
 */
export interface Service {
  /**
   * Address of the discovery document: a path appended to services.base (".well-known/api-configuration", "claims/.well-known/api-configuration"), an address with {target} ("{target}/claims/.well-known/api-configuration"), or a whole http(s) URL.
   */
  discovery: string;
}
/**
 * A client id and secret, each read from the environment variable named.
 */
export interface BasicCredential {
  clientIdEnv: EnvName;
  clientSecretEnv: EnvName;
}
/**
 * Records the target holds, by the operations that need them (see fixtures).
 */
export interface Fixtures {
  /**
   * Members for Find Member version 2 (Document 1, 4.2).
   */
  findMemberV2?: {
    single?: MemberSearch;
    none?: MemberSearch;
    multipleResolvedByRefine?: MemberSearch;
    multipleAfterRefine?: MemberSearch;
    /**
     * A date (YYYY-MM-DD) on which the policy of the `single` member is not active, for a server that applies policyActiveOn to that member's insurer: the single search with policyActiveOn set to it must find no member, NO_MATCH_FOUND (D1-4.2-11, DEC-D1-77). Without it that step is skipped (fixture-configured, counted against coverage).
     */
    policyInactiveOn?: string;
  };
  /**
   * Members for Find Member version 1 (Document 1, 4.1), which stays functional.
   */
  findMemberV1?: {
    single?: MemberSearch;
    multiple?: MemberSearch;
    none?: MemberSearch;
    otherVersionInsurer?: MemberSearch;
    /**
     * A date (YYYY-MM-DD) on which the policy of the `single` member is not active, for a server that applies policyActiveOn to that member's insurer: the single search with policyActiveOn set to it must find no member, NO_MATCH_FOUND (D1-4.1-13, DEC-D1-77). Without it that step is skipped (fixture-configured, counted against coverage).
     */
    policyInactiveOn?: string;
  };
  /**
   * An authorisation the target holds, for Search Authorisation (Document 1, 4.3).
   */
  authorisation?: {
    /**
     * authCode of an authorisation: the search by it must find it, and not under another insurer or with a crossed code (D1-4.3-04). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    authCode?: string;
    /**
     * caseCode of the same authorisation: the search by it must find it (D1-4.3-04).
     */
    caseCode?: string;
    /**
     * membershipNumber of the same authorisation's member: the search by it must find it (D1-4.3-05).
     */
    membershipNumber?: string;
    /**
     * Insurer code of the same authorisation; mixed into the generated searches as a held value.
     */
    insurerIdentifier?: string;
  };
  /**
   * A remittance the target holds (Document 1, 4.4-4.5).
   */
  remittance?: {
    /**
     * id of a remittance summary: its details are searched (Search Remittance Detail, path remittance_summary_id) and their filters judged. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    summaryId?: string;
  };
  /**
   * Hospital claims the target holds (Document 1, 4.9-4.10).
   */
  hospitalClaims?: {
    /**
     * A day (YYYY-MM-DD) with hospital claims: the list filtered by it must hold only claims serviced that day, and at least one (D1-4.9-03). Without it the day of a listed claim is used.
     */
    dateCompleted?: string;
    /**
     * The four required parameters of Search Hospital Claims naming at least one claim: the answer must hold it and only matching claims (D1-4.10-04). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    search?: {
      /**
       * Day the services were rendered (YYYY-MM-DD).
       */
      dateCompleted: string;
      /**
       * Name of the treatment site (hospital).
       */
      treatmentSiteName: string;
      /**
       * The patient's last name.
       */
      patientLastName: string;
      /**
       * The patient's date of birth (YYYY-MM-DD).
       */
      patientDateOfBirth: string;
    };
  };
  /**
   * Bills the target holds (Search Bills and Get Bill, Document 1, 4.11-4.12).
   */
  bills?: {
    /**
     * An insurer with bills: the search by it must return a searchset holding at least one (D1-4.11-05), each bill found must be served by its id (D1-4.12-05). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    insurerid?: string;
    /**
     * membershipNumber of a member with a bill of that insurer: the search filtered by it must keep only their bills (D1-4.11-03).
     */
    membershipNumber?: string;
    /**
     * An invoice number of a bill of that insurer: the search filtered by it must keep only that bill (D1-4.11-03).
     */
    invoiceNumber?: string;
    /**
     * id of a bill: Get Bill must return it (D1-4.12-02). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    billId?: string;
    /**
     * Whether that bill is archived ("true" or "false", default "false"): the second path segment of Get Bill.
     */
    isArchived?: 'true' | 'false';
  };
  /**
   * Remittance batches (Document 1, 4.6-4.8).
   */
  batches?: {
    /**
     * id of the pending batch of the run's site to acknowledge (with --allow-destructive); by default the last one listed. Acknowledged, it leaves the pending list for good.
     */
    ackId?: string;
    /**
     * id of a pending batch of another site: it must not be listed for the run's site, and Get of it should not return it (DEC-D1-64). Without it those checks are skipped.
     */
    foreignBatchId?: string;
  };
  /**
   * Code sets (Document 2, 4.1).
   */
  codeSets?: {
    /**
     * A profession code (practitionerRole) with specialties: practitioner-specialty narrowed by it must be a subset of all specialties (DEC-D2-06); also a profession probe of the booking practitioner search. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    profession?: string;
  };
  /**
   * Practitioner and location lookups and insurers (Document 2, 4.2-4.5).
   */
  lookups?: {
    /**
     * Text that names at least one practitioner: the practitioner lookup by it must return a paged bundle of matching practitioners (D2-4.2-02). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    practitionerText?: string;
    /**
     * Text that names at least one location by name or postcode: the location lookup by it must return matching locations (D2-4.3-02). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    locationText?: string;
    /**
     * Location type sent with locationText (the documents' example: P).
     */
    locationType?: string;
    /**
     * An insurer id: its control parameters must be returned with their four names and allowed values (Document 2, 4.5). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    insurerId?: string;
  };
  /**
   * Addresses and postcodes (Document 2, 4.6-4.8).
   */
  address?: {
    /**
     * Text that an address search can drill down from to an item of type Address, which is then retrieved by its key. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    searchText?: string;
    /**
     * A postcode that exists: geo-coding must give a position, and validation status true; also a postcode probe of the booking practitioner search. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    postcode?: string;
    /**
     * A text that is no postcode: validation must answer status false, and geo-coding must not fail with a server error (default "NOT A POSTCODE").
     */
    invalidPostcode?: string;
  };
  /**
   * Practice register (Document 2, 4.9-4.11).
   */
  register?: {
    /**
     * id of a practitioner with a photo: the photo must decode to its stated size and type. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    photoPractitionerId?: string;
    /**
     * A centre with practitioner roles within the distance: every form of near (km, mi, m) must keep roles inside the radius; also a probe of the booking practitioner search. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    near?: {
      /**
       * Latitude of the centre, in degrees.
       */
      lat: number;
      /**
       * Longitude of the centre, in degrees.
       */
      lon: number;
      /**
       * Radius in kilometres (sent also in miles and metres).
       */
      distanceKm: number;
    };
  };
  /**
   * Booking practitioners and roles (Document 2, 4.12-4.13).
   */
  booking?: {
    /**
     * id of a booking practitioner: Get must return exactly it (DEC-D2-23). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    practitionerId?: string;
    /**
     * id of a booking practitioner role: Get must return exactly it (DEC-D2-23). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    practitionerRoleId?: string;
  };
  /**
   * Users and sites of the accounts service (Document 3, 4.1, 7), as seen by the credentials user and client.
   */
  accounts?: {
    /**
     * id of the user of the credential user, accessible to the client: Get user details with SU-UserId must serve it to the client, and refuse it to clientWithoutAccount (422) and clientInactive (422); with the user's token, userId must equal it. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    userId?: string;
    /**
     * A valid code generated by the product and service page: Get user info with it must answer 200 with the user info (D3-4.1-11). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    userInfoCode?: string;
    /**
     * An sns_id of an event that was created or updated: Get event info must answer the event (D3-4.1-35). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    snsId?: string;
    /**
     * A site not connected to the user: Introspect must refuse it with 403 (D3-7-06), List site subscriptions with 403 (D3-7-10). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    unconnectedSiteId?: string;
    /**
     * An inactive site of the user: Introspect must refuse it with 403 (D3-7-07); Get user details must not list it. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    inactiveSiteId?: string;
    /**
     * A site that has no users: Get users by site must answer an empty users list (D3-4.1-39). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    siteWithoutUsers?: string;
    /**
     * A user the client's account has no access to: Get user details must refuse it with 403 (D3-7-12). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    inaccessibleUserId?: string;
    /**
     * Text naming sites of the user by id or name: List authorised sites v2 with search must keep only matching sites. Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    siteSearch?: string;
    /**
     * A child site of the user's sites: List authorised sites v2 must list it on one of its pages (D3-4.1-26). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    childSiteId?: string;
  };
  /**
   * Token details of an identity-provider sign-in (Document 3, 4.2), with the Basic credential client.
   */
  tokenDetails?: {
    /**
     * Name of the identity provider in the address (default "nhs").
     */
    idp?: string;
    /**
     * A registered redirect URI of the client whose user signed in through the identity provider with a linked account: must give the tokens (D3-4.2-15). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    redirectUri?: string;
    /**
     * A redirect URI whose user did not sign in through the identity provider: must answer 400 "User not logged in with NHS account" (D3-7-19). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    notSignedInRedirectUri?: string;
    /**
     * A redirect URI whose user's identity is not linked: must answer 404 "NHS user not found" (D3-7-20). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    unlinkedRedirectUri?: string;
  };
  /**
   * Diary authorisation codes (Document 3, 4.3).
   */
  diary?: {
    /**
     * An authorisation code from the login page that gives a diary token (response 2, D3-4.3-02); the diary lists are called with that token. Without it the steps that need it are skipped (fixture-configured, counted against coverage). Each code is sent once per run (a target may accept a code once, DEC-D3-70): this one first, then those of validCodes.
     */
    validCode?: string;
    /**
     * Further authorisation codes that each give a diary token (response 2), for a target that accepts a code once only (DEC-D3-70): the suite sends each code once, validCode first and then these in order, one per post authorisation (a run uses up to four: the outcome with and without StateToken, the refresh, the three lists sharing one token). When they run out, the steps still to come are skipped (fixture-configured), never failed.
     *
     * Items: An authorisation code from the login page, not used before.
     */
    validCodes?: string[];
    /**
     * An authorisation code that is refused (response 1 Unauthorized, D3-4.3-03). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    invalidCode?: string;
    /**
     * An authorisation code of a site not mapped (response 3 SiteNotMapped, D3-4.3-04). Without it the steps that need it are skipped (fixture-configured, counted against coverage). Sent once per run (DEC-D3-70): this one first, then those of unmappedSiteCodes.
     */
    unmappedSiteCode?: string;
    /**
     * Further authorisation codes of a site not mapped (response 3), for a target that accepts a code once only (DEC-D3-70): the suite sends each once, unmappedSiteCode first and then these (a run uses two: with and without StateToken). When they run out, the steps still to come are skipped (fixture-configured), never failed.
     *
     * Items: An authorisation code of a site not mapped, not used before.
     */
    unmappedSiteCodes?: string[];
  };
  /**
   * Patients (Document 3, 4.4).
   */
  patients?: {
    /**
     * id of an existing inactive patient (active false): Get patient must return it, and an update of it must be refused (D3-3-02). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    inactivePatientId?: string;
    /**
     * The version-id header every patient call carries, whose name the documents do not show (DEC-D3-07; default SVC-API-Version: 1).
     */
    versionHeader?: {
      /**
       * Header name.
       */
      name: string;
      /**
       * Header value.
       */
      value: string;
    };
  };
  /**
   * Contract pricing and payors (Document 3, 4.5).
   */
  contracts?: {
    /**
     * A site without the slf and na payors: listing its payors must create both, and a second listing holds each once (D3-4.5-13; with --allow-destructive, since it changes data). Without it the steps that need it are skipped (fixture-configured, counted against coverage).
     */
    freshSiteId?: string;
    /**
     * A location value for the effective-prices query; mixed into the generated requests as a held value.
     */
    location?: string;
    /**
     * A payor with contracts at the run's site (default "bup"): effective prices, payor listings and contract writes use it.
     */
    payor?: string;
    /**
     * A service code with a price, used when no listed contract shows one: effective prices for it are judged.
     */
    serviceCode?: string;
  };
}
/**
 * A member to find (Find Member, Document 1, 4.1 and 4.2): the form fields of step 1, each a string (insurerIdentifier and the search fields its insurer needs: membershipNumber, firstInitial, lastName, dateOfBirth ...), and in refine the optional fields of step 2.
 */
export interface MemberSearch {
  /**
   * Insurer code sent as insurerIdentifier (version 1: bup, ppp, nuh ...; version 2: ppp, nuh, cin ...).
   */
  insurerIdentifier: string;
  /**
   * Step 2 of version 2: the optional fields added to the same search (sex, postCode, policyActiveOn ...).
   */
  refine?: {
    /**
     * A step-2 field and its value.
     */
    [k: string]: string;
  };
  /**
   * A search field of step 1 and its value (firstInitial, lastName, dateOfBirth as YYYY-MM-DD, membershipNumber, postCode ...).
   */
  [k: string]:
    | string
    | {
        /**
         * A step-2 field and its value.
         */
        [k: string]: string;
      }
    | undefined;
}
