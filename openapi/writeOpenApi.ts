/**
 * Writes the OpenAPI documents (`conformance openapi`): `openapi.json` for the whole family and
 * `openapi-<service>.json` per service, pretty-printed with a final line break, so that the same
 * table and schemas give the same bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceId } from '../spec/types.ts';
import { buildOpenApiDocument, openApiFileName, SERVICES } from './buildOpenApi.ts';

/** The text of one document as it is written to disk. */
export const openApiText = (service?: ServiceId): string =>
  `${JSON.stringify(buildOpenApiDocument(service), null, 2)}\n`;

/** Writes every document into `outDir` (created when missing); returns the paths written, family first. */
export function writeOpenApi(outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  return [undefined, ...SERVICES].map((service) => {
    const file = join(outDir, openApiFileName(service));
    writeFileSync(file, openApiText(service));
    return file;
  });
}
