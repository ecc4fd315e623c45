/**
 * The schema file (under schemas/) of each operation's JSON request body: the operation table
 * names the body ("Patient without id"), not its schema. Read by the OpenAPI export and by the
 * client checks.
 */
export const REQUEST_BODY_SCHEMAS: Readonly<Record<string, string>> = {
  'create-patient': 'patient-create-request.schema.json',
  'update-patient': 'patient.schema.json',
  'create-condition': 'condition-create-request.schema.json',
  'upsert-payor': 'contract-payor-request.schema.json',
  'upsert-contact-payor': 'contract-payor-request.schema.json',
  'set-contract-service': 'contract-price-request.schema.json',
  'set-contract-service-with-procedure': 'contract-price-request.schema.json',
  'set-contract-price': 'contract-price-request.schema.json',
};
