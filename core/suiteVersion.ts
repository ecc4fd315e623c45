/** The suite's own name and version (package.json), recorded in every results.json. */
import { readFileSync } from 'node:fs';

export function suiteVersion(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
  return { name: pkg.name, version: pkg.version };
}
