import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';

/** The documented control parameters and their allowed values (document 2, 2.3). */
const ALLOWED: Record<string, readonly string[]> = {
  acceptsEDIClaims: ['Y', 'N'],
  requiresDiagnosis: ['Y', 'N'],
  synchronousME: ['Y', 'N'],
  stvEnabled: ['Y', 'N', 'E'],
};

const NAME = /\/\$control-parameters\/([^/?#]+)$/;

/**
 * An insurer's control parameters are complete (document 2, 2.3 and 4.5; DEC-D2-10): among the
 * Organization's extensions whose URL ends `/$control-parameters/<name>`, `acceptsEDIClaims`,
 * `requiresDiagnosis` and `synchronousME` appear exactly once each with valueString `Y` or `N`,
 * and `stvEnabled` exactly once with `Y`, `N` or `E`. Other names are recorded, not judged.
 */
export const controlParametersComplete: Check = {
  id: 'control-parameters-complete',
  summary: 'The four insurer control parameters appear once each with an allowed value',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    if (body.value.resourceType !== undefined && body.value.resourceType !== 'Organization') {
      return fail(`Expected an Organization, received ${describe(body.value)}`);
    }
    const values = new Map<string, unknown[]>();
    const extensions = Array.isArray(body.value.extension) ? body.value.extension : [];
    for (const extension of extensions) {
      if (!isRecord(extension) || typeof extension.url !== 'string') continue;
      const match = NAME.exec(extension.url);
      if (!match) continue;
      const seen = values.get(match[1]);
      if (seen === undefined) values.set(match[1], [extension.valueString]);
      else seen.push(extension.valueString);
    }
    const problems: string[] = [];
    for (const [name, allowed] of Object.entries(ALLOWED)) {
      const seen = values.get(name) ?? [];
      if (seen.length === 0) problems.push(`${name} missing`);
      else if (seen.length > 1) problems.push(`${name} ${seen.length} times`);
      else if (typeof seen[0] !== 'string' || !allowed.includes(seen[0])) problems.push(`${name} ${show(seen[0], 30)}`);
    }
    const evidence = { parameters: Object.fromEntries(values) };
    if (problems.length > 0) {
      return fail(
        `Expected acceptsEDIClaims, requiresDiagnosis, synchronousME (Y or N) and stvEnabled (Y, N or E) once each, received ${problems.join(', ')}`,
        evidence,
      );
    }
    return pass(
      Object.keys(ALLOWED)
        .map((name) => `${name} ${values.get(name)?.[0] as string}`)
        .join(', '),
      evidence,
    );
  },
};
