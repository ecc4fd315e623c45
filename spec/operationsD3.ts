/**
 * Document 3 rows of the operation table: accounts, sign-on, diary, patients, contract pricing.
 * Section numbers refer to ../shared/spec/03-accounts-signon-diary-patient-contracts.md.
 */
import { defineOperation, type ErrorEntry, type HeaderRequirement, type Operation, type Parameter } from './types.ts';

const bearer: HeaderRequirement = { name: 'Authorization', value: 'Bearer {token}', enforced: true };
const basic: HeaderRequirement = { name: 'Authorization', value: 'Basic {basic}', enforced: true };
const json: HeaderRequirement = { name: 'Content-Type', value: 'application/json', enforced: false };
const fhirJson: HeaderRequirement = { name: 'Content-Type', value: 'application/fhir+json', enforced: false };
const site: HeaderRequirement = { name: 'SU-SiteId', value: '{siteId}', enforced: true };
const optionalSite: HeaderRequirement = { name: 'SU-SiteId', value: '{siteId}', enforced: false };
/** The patient operations' version-id header: its name is not shown (DEC-D3-07). */
const patientVersion: HeaderRequirement = { name: 'SVC-API-Version', value: '1', enforced: true };

const q = (name: string, description: string, extra: Partial<Parameter> = {}): Parameter => ({
  name,
  in: 'query',
  format: 'string',
  required: false,
  description,
  ...extra,
});
const path = (name: string, description: string): Parameter => ({
  name,
  in: 'path',
  format: 'string',
  required: true,
  description,
});
const body = (description: string): Parameter => ({
  name: 'body',
  in: 'body',
  format: 'string',
  required: true,
  description,
});

/** Accounts errors are `{message, code}` with `code` the HTTP status (2.2, 7). */
const e = (status: number, code: string, meaning: string): ErrorEntry => ({ status, code, meaning });

const patientErrors: ErrorEntry[] = [
  e(400, 'MSG_CANT_PARSE_CONTENT', 'Failed to parse'),
  e(400, 'MSG_MISSING_MANDATORY_PARAM', 'Mandatory parameter missing'),
  e(400, 'MSG_INVALID_FORMAT', 'Invalid format'),
  e(400, 'INVALID_RESOURCE', 'Unprocessable entity'),
  e(422, 'MSG_FAILED_TO_READ_ENTITY', 'Failed to read entity'),
  e(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', 'No matching resource'),
  e(422, 'MSG_PARAM_INVALID', 'Parameter content not valid'),
  e(422, 'MSG_REFERENCE_ID_NOT_FOUND', 'Reference id not found'),
  e(422, 'MSG_DATE_FORMAT', 'Date format not valid'),
];
const patientUpdateErrors: ErrorEntry[] = [
  e(422, 'REFERENCE_NOT_FOUND', 'Reference not found'),
  e(422, 'INVALID_RESOURCE', 'Invalid resource'),
  e(422, 'MISSING_MANDATORY_ELEMENT', 'Missing mandatory element'),
  e(422, 'INVALID_EXTENSION', 'Invalid extension'),
  e(422, 'INVALID_REFERENCE', 'Invalid reference'),
];
/** Token-details errors: body `{status: 'fail', message, code}` (7); the message is the key. */
const tokenDetailsErrors: ErrorEntry[] = [
  e(400, 'redirect_uri is required', 'redirect_uri missing'),
  e(401, 'No authorization header provided', 'No Authorization header'),
  e(401, 'Invalid client credentials', 'Bad client id or secret'),
  e(400, 'User not logged in with NHS account', 'Sign-in through the identity provider missing'),
  e(404, 'NHS user not found', 'Identity not linked'),
];

const base = {
  document: 'D3' as const,
  method: 'GET' as const,
  pathSuffix: '',
  destructive: false,
  responseMediaType: 'json' as const,
  reservedForOperator: true,
};

const accounts = <const I extends string>(
  id: I,
  summary: string,
  suffix: string,
  extra: Partial<Omit<Operation, 'id'>>,
): Operation<I> => ({
  ...base,
  id,
  section: '4.1',
  summary,
  service: 'accounts',
  discoveryKey: 'accounts_url',
  pathSuffix: suffix,
  documentedPath: `{accounts_url}${suffix}`,
  headers: [bearer, json],
  parameters: [],
  errors: [],
  successStatus: 200,
  suite: 'accounts',
  ...extra,
});

const contracts = <const I extends string>(
  id: I,
  summary: string,
  method: Operation['method'],
  suffix: string,
  documentedPath: string,
  extra: Partial<Omit<Operation, 'id'>>,
): Operation<I> => ({
  ...base,
  id,
  section: '4.5',
  summary,
  service: 'contracts',
  discoveryKey: `${id.replace(/-/g, '_')}_endpoint`,
  method,
  pathSuffix: suffix,
  documentedPath,
  headers: [bearer, fhirJson],
  parameters: [],
  errors: [],
  suite: 'contracts',
  ...extra,
});

const deletedOutcome = 'deleted-outcome.schema.json';

export const operationsD3 = [
  accounts('introspect', 'Introspect the token (and verify access to SU-SiteId)', '/api/introspect', {
    headers: [bearer, json, optionalSite],
    responseSchema: 'accounts-status.schema.json',
    errors: [
      e(400, 'error text', 'Any verification fails'),
      e(400, 'userId not found in authentication token', 'Token has no user'),
      e(422, 'No account is associated for this client', 'Client-credentials token without client account'),
      e(422, 'The client account <client_account> status should be ACTIVE', 'Client account inactive'),
      e(403, 'The SU-Site <site_id> and SU-User <user_id> authorisation is invalid', 'Site not connected to the user'),
      e(403, 'The SU-Site <site_id> status should be ACTIVE', 'Site inactive'),
    ],
  }),
  accounts('list-features', 'List features (role object)', '/api/feature', {
    headers: [bearer, json, optionalSite],
    responseSchema: 'accounts-role.schema.json',
    errors: [
      e(400, 'userId not found in authentication token', 'Token has no user'),
      e(403, 'Features not found', 'No features assigned'),
    ],
  }),
  accounts('get-user-info', 'Get user info by product code', '/api/userinfo', {
    parameters: [q('code', 'Code generated by the product and service page', { required: true })],
    responseSchema: 'accounts-user-info.schema.json',
    errors: [e(422, 'Secret code not found', 'Invalid code')],
  }),
  accounts('list-authorised-sites-v1', 'List authorised sites, version 1', '/api/restricted/site/v1/authorised', {
    responseSchema: 'accounts-sites-v1.schema.json',
  }),
  accounts(
    'list-authorised-sites-v2',
    'List authorised sites, version 2 (paginated, includes child sites)',
    '/api/restricted/site/v2/authorised',
    {
      parameters: [
        q('pageNumber', 'Page number', { format: 'positive-integer' }),
        q('maxRecordsPerPage', 'Records per page', { format: 'positive-integer' }),
        q('search', 'Site id or name'),
      ],
      responseSchema: 'accounts-sites-v2.schema.json',
    },
  ),
  accounts('list-site-subscriptions', 'List site subscriptions', '/api/restricted/subscription', {
    headers: [bearer, json, site],
    responseSchema: 'accounts-subscription.schema.json',
    errors: [e(403, 'Loggedin user does not have permission to perform this operation.', 'No access to the site')],
  }),
  accounts('get-user-details', 'Get user details', '/api/restricted/user', {
    headers: [bearer, json, { name: 'SU-UserId', value: '{userId}', enforced: false }],
    responseSchema: 'accounts-user-details.schema.json',
    errors: [
      e(422, 'No account is associated for this client', 'Client-credentials token without client account'),
      e(422, 'The client account <client_account> status should be ACTIVE', 'Client account inactive'),
      e(422, 'SU-UserId is missing', 'Client-credentials token without the header'),
      e(403, 'The client account <client_account> does not have access to this user <user_id>', 'No access'),
    ],
  }),
  accounts('get-event-info', 'Get event info by sns_id', '/api/event', {
    parameters: [q('sns_id', 'Event id generated when the event is created or updated', { required: true })],
    responseSchema: 'accounts-event.schema.json',
    errors: [e(403, 'SNS_ID is Invalid.', 'Invalid sns_id')],
  }),
  accounts('get-site-users', 'Get users by site', '/api/restricted/site/{siteId}', {
    headers: [bearer, json, optionalSite],
    parameters: [path('siteId', 'Site id')],
    responseSchema: 'accounts-site-users.schema.json',
  }),
  defineOperation({
    ...base,
    id: 'logout',
    section: '4.2',
    summary: 'Logout (removes tokens and session)',
    service: 'auth',
    discoveryKey: 'auth_url',
    pathSuffix: '/logout',
    documentedPath: '{auth_url}/logout',
    headers: [json],
    parameters: [],
    responseMediaType: 'json',
    successStatus: 200,
    errors: [],
    suite: 'sign-on',
  }),
  defineOperation({
    ...base,
    id: 'revoke-token',
    section: '4.2',
    summary: 'Revoke an access or refresh token',
    service: 'auth',
    discoveryKey: 'auth_url',
    method: 'POST',
    pathSuffix: '/revoke',
    documentedPath: '{auth_url}/revoke',
    headers: [basic, { name: 'Content-Type', value: 'application/x-www-form-urlencoded', enforced: true }],
    parameters: [
      { name: 'token', in: 'form', format: 'string', required: true, description: 'Token to revoke' },
      {
        name: 'token_type_hint',
        in: 'form',
        format: 'enum',
        required: false,
        values: ['access_token', 'refresh_token'],
        description: 'Kind of token',
      },
    ],
    responseMediaType: 'json',
    successStatus: 200,
    errors: [],
    destructive: true,
    suite: 'sign-on',
  }),
  defineOperation({
    ...base,
    id: 'get-idp-token-details',
    section: '4.2',
    summary: 'Token details of an identity-provider sign-in',
    service: 'auth',
    discoveryKey: 'auth_url',
    pathSuffix: '/oauth/{idp}/token-details',
    documentedPath: '{auth_url}/oauth/<idp>/token-details',
    headers: [basic],
    parameters: [
      path('idp', 'Identity provider name'),
      q('redirect_uri', 'Registered client redirect URI', { required: true }),
    ],
    responseSchema: 'token-details.schema.json',
    successStatus: 200,
    errors: tokenDetailsErrors,
    suite: 'sign-on',
  }),
  defineOperation({
    ...base,
    id: 'diary-post-auth',
    section: '4.3',
    summary: 'Exchange an authorisation code for a diary token',
    service: 'diary',
    discoveryKey: 'diary_url',
    method: 'POST',
    pathSuffix: '/api/auth/postauth',
    documentedPath: '{diary_url}/api/auth/postauth',
    headers: [],
    parameters: [
      { name: 'Code', in: 'multipart', format: 'string', required: true, description: 'Authorisation code' },
      {
        name: 'StateToken',
        in: 'multipart',
        format: 'string',
        required: false,
        description: 'Opaque value returned unchanged',
      },
    ],
    responseSchema: 'diary-token.schema.json',
    errors: [],
    suite: 'diary',
  }),
  defineOperation({
    ...base,
    id: 'diary-refresh-token',
    section: '4.3',
    summary: 'Refresh the diary token',
    service: 'diary',
    discoveryKey: 'diary_url',
    method: 'POST',
    pathSuffix: '/api/auth/refreshtoken',
    documentedPath: '{diary_url}/api/auth/refreshtoken',
    headers: [{ name: 'Authorization', value: 'Bearer {diaryToken}', enforced: true }],
    parameters: [],
    responseSchema: 'diary-token.schema.json',
    errors: [],
    suite: 'diary',
  }),
  ...(
    [
      ['list-episode-types', '/api/episodetypes', 'List episode types', 'diary-episode-types.schema.json'],
      [
        'list-appointment-statuses',
        '/api/appointments/appointmentstatus',
        'List appointment statuses',
        'diary-appointment-statuses.schema.json',
      ],
      ['list-recurrence-types', '/api/recurrencetypes', 'List recurrence types', 'diary-recurrence-types.schema.json'],
    ] as const
  ).map(
    ([id, suffix, summary, schema]): Operation<typeof id> => ({
      ...base,
      id,
      section: '4.3',
      summary,
      service: 'diary',
      discoveryKey: 'diary_url',
      pathSuffix: suffix,
      documentedPath: `{diary_url}${suffix}`,
      headers: [{ name: 'Authorization', value: 'Bearer {diaryToken}', enforced: true }],
      parameters: [],
      responseSchema: schema,
      successStatus: 200,
      errors: [e(401, '', 'Unauthorised: no body')],
      suite: 'diary',
    }),
  ),
  ...(
    [
      [
        'create-patient',
        'create_patient_endpoint',
        'POST',
        '',
        '{base_url}/patient/',
        'Create a patient',
        'patient.schema.json',
        patientErrors,
        [body('Patient without id')],
      ],
      [
        'get-patient',
        'get_patienet_endpoint',
        'GET',
        '/{patient_id}',
        '{base_url}/patient/{patient_id}',
        'Get a patient',
        'patient.schema.json',
        patientErrors,
        [path('patient_id', 'Patient id')],
      ],
      [
        'update-patient',
        'update_patient_endpoint',
        'PUT',
        '/{patient_id}',
        '{base_url}/{patient_id}',
        'Update a patient',
        'patient.schema.json',
        patientUpdateErrors,
        [path('patient_id', 'Patient id'), body('Patient with id')],
      ],
      [
        'delete-patient',
        'delete_patient_endpoint',
        'DELETE',
        '/{patient_id}',
        '{base_url}/patient/{patient_id}',
        'Delete a patient',
        'deleted-parameters.schema.json',
        patientErrors,
        [path('patient_id', 'Patient id')],
      ],
      [
        'create-condition',
        'create_condition_endpoint',
        'POST',
        '',
        '{base_url}/patient/condition',
        'Add a condition to an existing patient',
        'condition.schema.json',
        patientErrors,
        [body('Condition')],
      ],
      [
        'delete-condition',
        'delete_patient_condition_endpoint',
        'DELETE',
        '/{condition_id}',
        '{base_url}/patient/condition/{condition_id}',
        'Delete a condition',
        'deleted-parameters.schema.json',
        patientErrors,
        [path('condition_id', 'Condition id')],
      ],
    ] as const
  ).map(
    ([id, key, method, suffix, documentedPath, summary, schema, errors, parameters]): Operation<typeof id> => ({
      ...base,
      id,
      section: '4.4',
      summary,
      service: 'patients',
      discoveryKey: key,
      method,
      pathSuffix: suffix,
      documentedPath,
      headers: [bearer, site, patientVersion, fhirJson],
      parameters: [...parameters],
      responseSchema: schema,
      errors: [...errors],
      destructive: method !== 'GET',
      reservedForOperator: false,
      suite: 'patients',
    }),
  ),
  contracts(
    'get-effective-prices',
    'Retrieve effective prices',
    'GET',
    '',
    '{contracts_url}/contract/PRICING/$effective-prices',
    {
      parameters: [
        q('site', 'Site id'),
        q('location', 'Location id'),
        q('payor', 'Payor ids, comma-separated'),
        q('service-code', 'Service code'),
        q('page', 'Page', { format: 'positive-integer' }),
        q('count', 'Records per page', { format: 'positive-integer' }),
        q('_since', 'Incremental sync', { format: 'date-time' }),
      ],
      responseSchema: 'contract-bundle.schema.json',
      pagingTags: ['page', 'count', 'maxCount'],
    },
  ),
  contracts('list-contract-types', 'Retrieve contract types', 'GET', '', '{contracts_url}/valueset/contract-type', {
    discoveryKey: 'get_contract_type_list',
    responseSchema: 'contract-valueset.schema.json',
  }),
  contracts(
    'list-contract-subtypes',
    'Retrieve contract sub types',
    'GET',
    '',
    '{contracts_url}/valueset/contract-subtype/PRICING',
    { discoveryKey: 'get_contract_subtype_list', responseSchema: 'contract-valueset.schema.json' },
  ),
  contracts(
    'list-site-payors',
    'List payors of a site (creates slf and na when missing)',
    'GET',
    '/{siteId}',
    '{contracts_url}/contract/site/{siteId}',
    {
      discoveryKey: 'get_payors_list_endpoint',
      parameters: [path('siteId', 'Site id')],
      responseSchema: 'contract-bundle.schema.json',
      destructive: true,
    },
  ),
  contracts('upsert-payor', 'Create or update an insurer payor', 'POST', '', '{contracts_url}/contract', {
    discoveryKey: 'add_payor_endpoint',
    parameters: [body('Contract with authority Organization/<payor>')],
    responseSchema: 'contract.schema.json',
    destructive: true,
  }),
  contracts('delete-payor', 'Delete an insurer payor', 'DELETE', '/{site}', '{contracts_url}/contract/{site}', {
    parameters: [
      path('site', 'Site id'),
      q('payorId', 'Organization/<payor> (example: payerId)', { required: true }),
      q('payorType', 'I (example: payerType)', { required: true, format: 'enum', values: ['I'] }),
      q('providerGroup', 'Contract id of the payor', { required: true, namesRecord: true }),
    ],
    responseSchema: deletedOutcome,
    destructive: true,
  }),
  contracts('upsert-contact-payor', 'Create or update a contact as payor', 'POST', '', '{contracts_url}/contract', {
    discoveryKey: 'add_contact_as_payor_endpoint',
    parameters: [body('Contract with authority Person/<contact>')],
    responseSchema: 'contract.schema.json',
    destructive: true,
  }),
  contracts(
    'delete-contact-payor',
    'Delete a contact as payor',
    'DELETE',
    '/{site}',
    '{contracts_url}/contract/{site}',
    {
      discoveryKey: 'delete_contact_as_payor_endpoint',
      parameters: [
        path('site', 'Site id'),
        q('payorId', 'Person/<contact>', { required: true }),
        q('payorType', 'C', { required: true, format: 'enum', values: ['C'] }),
        q('providerGroup', 'Contract id of the payor', { required: true, namesRecord: true }),
      ],
      responseSchema: deletedOutcome,
      destructive: true,
    },
  ),
  contracts(
    'set-contract-service',
    'Set a contract service',
    'POST',
    '',
    '{contracts_url}/contract/PRICING/$contract-price',
    {
      parameters: [body('Contract with a service valuedItem')],
      responseSchema: 'contract.schema.json',
      destructive: true,
    },
  ),
  contracts(
    'delete-contract-service',
    'Delete a contract service',
    'DELETE',
    '/{site}',
    '{contracts_url}/contract/PRICING/$contract-price/{site}',
    {
      parameters: [
        path('site', 'Site id'),
        q('indStdCode', 'Service code', { required: true }),
        q('indStdCodeScheme', 'Service code scheme', { required: true }),
      ],
      responseSchema: deletedOutcome,
      destructive: true,
    },
  ),
  contracts(
    'set-contract-service-with-procedure',
    'Set a contract service with procedure',
    'POST',
    '',
    '{contracts_url}/contract/PRICING/$contract-price',
    {
      discoveryKey: 'set_contract_service_withprocedure_endpoint',
      parameters: [body('Contract with service and procedure valuedItems')],
      responseSchema: 'contract.schema.json',
      destructive: true,
    },
  ),
  contracts(
    'delete-contract-service-with-procedure',
    'Delete a contract service with procedure',
    'DELETE',
    '/{site}',
    '{contracts_url}/contract/PRICING/$contract-price/{site}',
    {
      discoveryKey: 'delete_contract_service_withprocedure_endpoint',
      parameters: [
        path('site', 'Site id'),
        q('indStdCode', 'Service code', { required: true }),
        q('indStdCodeScheme', 'Service code scheme', { required: true }),
        q('procedureCode', 'Procedure code', { required: true }),
        q('procedureScheme', 'Procedure scheme', { required: true }),
      ],
      responseSchema: deletedOutcome,
      destructive: true,
    },
  ),
  contracts(
    'set-contract-price',
    'Set a contract price (fee)',
    'POST',
    '',
    '{contracts_url}/contract/PRICING/$contract-price',
    {
      parameters: [body('Contract with service, procedure and fee valuedItems')],
      responseSchema: 'contract.schema.json',
      destructive: true,
    },
  ),
] satisfies readonly Operation[];
