/**
 * Request arbitraries derived from the operation table (spec/operations.ts and the D2/D3 rows):
 * the valid parameter sets of an operation, and for every parameter its invalid cases with the
 * answers the documents allow (DESIGN.md, "Generators and properties"; issue 14, items 1-3). JSON
 * bodies are not covered here (their own generators); the coverage phase lives in
 * coveragePhase.ts and is re-exported.
 */
import fc from 'fast-check';
import type { FeatureName, Operation, Parameter } from '../spec/types.ts';
import { parameterValue } from './parameterValue.ts';
import {
  type AllowedAnswers,
  allowedAnswers,
  type InvalidKind,
  type InvalidValue,
  parameterValueInvalid,
} from './parameterValueInvalid.ts';
import {
  coRequiredParameter,
  featuresHeld,
  fixturesOf,
  namesRecord,
  type ParameterRequest,
  parameterValueRequest,
  type RequestOptions,
  requestParameters,
} from './parameterValueRequest.ts';

export { type CoverageEntry, coveragePhase } from './coveragePhase.ts';
export { type AllowedAnswers, answerAllowed, type InvalidKind } from './parameterValueInvalid.ts';
export {
  type ParameterRequest,
  type RequestOptions,
  renderRequestTarget,
  parameterValueOf,
} from './parameterValueRequest.ts';

/** A valid value of the parameter, taking one of its fixtures at the given weight. */
function valueWithFixtures(p: Parameter, options: RequestOptions): fc.Arbitrary<string> {
  const fixtures = fixturesOf(p, options);
  const weight = options.held?.includes(p.name) ? 1 : Math.min(1, Math.max(0, options.fixtureWeight ?? 0.5));
  if (fixtures.length === 0 || weight === 0) return parameterValue(p);
  if (weight === 1) return fc.constantFrom(...fixtures);
  // Fixtures first: fc.oneof shrinks towards its first branch's values only within a branch, so
  // a fixture value stays a fixture value while the rest of the request shrinks.
  return fc.oneof(
    { arbitrary: fc.constantFrom(...fixtures), weight: Math.round(weight * 100) },
    { arbitrary: parameterValue(p), weight: Math.round((1 - weight) * 100) },
  );
}

/**
 * The valid values of `parameters` by name: required ones always, optional ones half of the
 * time (shrinking to absent). A value that needs another parameter beside it (a distance sort
 * without `near`, DEC-D2-17) is dropped when that one is absent.
 */
function validValues(
  op: Operation,
  parameters: readonly Parameter[],
  options: RequestOptions,
): fc.Arbitrary<Record<string, string | undefined>> {
  const members: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const p of parameters) {
    const value = valueWithFixtures(p, options);
    members[p.name] = p.required ? value : fc.option(value, { nil: undefined, freq: 2 });
  }
  const optional = parameters.filter((p) => !p.required).map((p) => p.name);
  const limit = options.maxOptional;
  // At most `maxOptional` optional parameters: which ones are drawn first (shrinking towards
  // fewer), then the values of those.
  const drawn =
    limit === undefined || limit >= optional.length
      ? fc.record(members)
      : fc
          .uniqueArray(fc.constantFrom(...optional), { maxLength: limit })
          .chain((chosen) =>
            fc.record(
              Object.fromEntries(
                parameters
                  .filter((p) => p.required || chosen.includes(p.name))
                  .map((p) => [p.name, valueWithFixtures(p, options)] as const),
              ),
            ),
          );
  return drawn.map((values) => {
    const out: Record<string, string | undefined> = { ...values };
    for (const [name, v] of Object.entries(values)) {
      if (v === undefined) continue;
      const needs = coRequiredParameter(op, name, v);
      if (needs !== undefined && out[needs] === undefined) out[name] = undefined;
    }
    return out;
  });
}

/**
 * A fast-check arbitrary of the operation's valid parameter sets (path, query, form and multipart
 * parameters of the table row; Document 1, 4; Document 2, 4; Document 3, 4): each value of its
 * documented form (generators/parameterValue.ts), required parameters always, optional ones
 * sometimes, feature-gated ones only when `options.features` holds all their features, fixtures
 * mixed in at `options.fixtureWeight`. Deterministic for a seed; shrinks to the required
 * parameters at their simplest values.
 *
 * @example
 * fc.assert(fc.asyncProperty(validRequest(operation('search-remittance-summary'), {
 *   features: ['Advanced_Search_1_0'], fixtures: { insurerIdentifier: 'ppp' } }), async (r) => ...));
 */
export function validRequest(op: Operation, options: RequestOptions = {}): fc.Arbitrary<ParameterRequest> {
  const parameters = requestParameters(op).filter(
    (p) => featuresHeld(p, options.features) && (p.required || !options.optional || options.optional.includes(p.name)),
  );
  return validValues(op, parameters, options).map((values) => parameterValueRequest(op, values));
}

/** One request made invalid for one reason, with the answers the documents allow. */
export interface InvalidRequest {
  operationId: string;
  parameter: string;
  kind: InvalidKind;
  /** The invalid value sent; undefined when the parameter is left out (`missing`). */
  value: string | undefined;
  reason: string;
  request: ParameterRequest;
  allowed: AllowedAnswers;
}

/** The invalid requests of one parameter for one reason. */
export interface InvalidRequestFamily {
  operationId: string;
  parameter: string;
  kind: InvalidKind;
  reason: string;
  allowed: AllowedAnswers;
  /** Features the caller must hold so that the parameter itself is accepted for judging. */
  features: readonly FeatureName[];
  /** Every member is invalid for this family's reason only, and shrinks within the family. */
  arbitrary: fc.Arbitrary<InvalidRequest>;
}

/**
 * For every parameter of the operation, its negative cases (generators/parameterValueInvalid.ts):
 * missing (required ones), empty, of the wrong format, out of range, not one of its values; each
 * family with the answers the documents allow (Document 1, 2, 3, section 7; DEC-D1-17, -19, -24;
 * DEC-D2-30, -58; never cry wolf).
 *
 * Shrinking: a family is `fc.record({ bad, rest })` where `bad` is `fc.constantFrom` of the
 * family's invalid values ordered smallest first and `rest` is the valid rest of the request
 * (optional members shrink to absent, required ones to their simplest valid value). Every shrink
 * step stays inside the family, so the shrunk request is still invalid for the same reason; a
 * single record rather than one `fc.oneof` over all kinds keeps fast-check from "shrinking" a
 * format case into an empty one, which would change the reason.
 */
export function invalidRequests(op: Operation, options: RequestOptions = {}): readonly InvalidRequestFamily[] {
  const families: InvalidRequestFamily[] = [];
  const all = requestParameters(op);
  for (const p of all) {
    const held = [...(options.features ?? []), ...(p.features ?? [])];
    // Invalid for one reason only: every other parameter valid, and every one that names a record
    // naming one the target holds (a fixture); an optional one without a fixture is left out.
    const naming = all.filter((o) => o.name !== p.name && namesRecord(o));
    const heldRecords = naming.filter((o) => fixturesOf(o, options).length > 0).map((o) => o.name);
    const unheld = naming.filter((o) => !heldRecords.includes(o.name));
    const rest = all.filter((o) => o.name !== p.name && featuresHeld(o, held) && (o.required || !unheld.includes(o)));
    const restOptions = { ...options, held: [...(options.held ?? []), ...heldRecords] };
    // A required record the run holds no fixture for: the target may refuse the unknown record
    // first (no order of checking is documented), so any refusal is all the documents allow.
    const unknownRecord = unheld.find((o) => o.required && rest.includes(o));
    for (const [kind, values] of parameterValueInvalid(p)) {
      const documented = allowedAnswers(op, p, kind);
      const allowed: AllowedAnswers = unknownRecord
        ? {
            refusal: 'any-4xx',
            errors: [],
            mayServe: documented.mayServe,
            basis: [...documented.basis, `${unknownRecord.name} names no record the target is known to hold`],
          }
        : documented;
      const arbitrary = fc
        .record({ bad: fc.constantFrom<InvalidValue>(...values), rest: validValues(op, rest, restOptions) })
        .map(
          ({ bad, rest: others }): InvalidRequest => ({
            operationId: op.id,
            parameter: p.name,
            kind,
            value: bad.value,
            reason: bad.reason,
            request: parameterValueRequest(op, { ...others, [p.name]: bad.value }),
            allowed,
          }),
        );
      families.push({
        operationId: op.id,
        parameter: p.name,
        kind,
        reason: values[0].reason,
        allowed,
        features: p.features ?? [],
        arbitrary,
      });
    }
  }
  return families;
}

/**
 * Any invalid request of the operation (one of its families), or undefined when it has no
 * parameter. `fc.oneof` without cross-shrinking keeps a shrink inside the chosen family.
 */
export function anyInvalidRequest(
  op: Operation,
  options: RequestOptions = {},
): fc.Arbitrary<InvalidRequest> | undefined {
  const families = invalidRequests(op, options);
  return families.length === 0 ? undefined : fc.oneof(...families.map((f) => f.arbitrary));
}
