import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { configTypesSource, TYPES_FILE } from '../scripts/configTypes.ts';

test('core/configTypes.ts is what core/config.schema.json gives (run `npm run gen:config-types` after a schema change)', async () => {
  expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await configTypesSource());
});
