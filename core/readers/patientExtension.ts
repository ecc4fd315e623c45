/**
 * The one reader of a Patient extension's name (Document 3, 2.4: "`extension[]` with URLs
 * `{ref_url}/extension/patient/insurer`, `.../registrationid`, `.../authorizationno`"; DEC-D3-30):
 * Document 3 does not define `{ref_url}`, so a target may answer under a prefix of its own and
 * the extension is known by the URL's ending alone. The round-trip check and the patient state
 * machine ask here, so no part of the suite reads an extension URL more narrowly than another.
 */

/** `insurer` of `https://any.prefix/extension/patient/insurer`; undefined for any other URL or value. */
export function patientExtensionName(url: unknown): string | undefined {
  return typeof url === 'string' ? /\/extension\/patient\/([^/]+)$/.exec(url)?.[1] : undefined;
}
