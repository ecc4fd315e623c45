/** Fixed system and extension URLs inside sandbox resources (Document 1, 2.2-2.8). */
export const REF_URL = 'https://sandbox.example/ref';
export const CLEARING_URL = 'https://sandbox.example/clearing';
export const CLEARING_EXT_URL = 'https://sandbox.example/clearing/extension';

/** `{claims_url}` of the sandbox: the claims service lives under `{base}/claims` (DEC-D1-08). */
export function claimsUrl(baseUrl: string): string {
  return `${baseUrl}/claims`;
}

export const refExtension = (name: string): string => `${REF_URL}/extension/${name}`;
export const clearingExtension = (name: string): string => `${CLEARING_EXT_URL}/${name}`;

/** `{contracts_url}` of the sandbox: the contract service lives under `{base}/contracts` (DEC-D3-02). */
export function contractsUrl(baseUrl: string): string {
  return `${baseUrl}/contracts`;
}
