/** Loads the hand-written results fixtures (core/testSupport/results/*.json) for tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunResults } from '../results.ts';

export type FixtureName = 'conformant' | 'failing' | 'inconclusive';
export const FIXTURE_NAMES: readonly FixtureName[] = ['conformant', 'failing', 'inconclusive'];

export function fixturePath(name: FixtureName): string {
  return fileURLToPath(new URL(`./results/${name}.json`, import.meta.url));
}

/** A fresh copy each call, so tests may modify it. */
export function loadFixture(name: FixtureName): RunResults {
  return JSON.parse(readFileSync(fixturePath(name), 'utf8')) as RunResults;
}
