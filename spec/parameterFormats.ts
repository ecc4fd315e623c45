/**
 * The documented form of each parameter format of the operation table (spec/types.ts
 * `ParameterFormat`): what a value the documents allow looks like. Read by the client checks,
 * which judge what a client sends.
 */
import type { Parameter, ParameterFormat } from './types.ts';

const DATE = '\\d{4}-\\d{2}-\\d{2}';
const MINUTE = `${DATE}T\\d{2}:\\d{2}`;

const FORMS: Readonly<Record<Exclude<ParameterFormat, 'enum' | 'string'>, RegExp>> = {
  date: new RegExp(`^${DATE}$`),
  'date-range': new RegExp(`^${DATE}_${DATE}$`),
  'datetime-range': new RegExp(`^${MINUTE}(_${MINUTE})?$`),
  'date-time': new RegExp(`^${DATE}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$`),
  'comparator-decimal': /^(le|ge|eq)-?\d+(\.\d+)?$/,
  boolean: /^(true|false)$/i,
  'positive-integer': /^[1-9]\d*$/,
  near: /^-?\d+(\.\d+)?:-?\d+(\.\d+)?:\d+(\.\d+)?(:(km|mi|m))?$/,
  distance: /^\d+(\.\d+)?(km|mi|m)?$/,
};

/** Why a value is not of the parameter's documented form, or undefined when it is. */
export function formProblem(parameter: Parameter, value: string): string | undefined {
  if (value === '') return 'empty';
  if (parameter.format === 'string') return undefined;
  if (parameter.format === 'enum') {
    const values = parameter.values ?? [];
    // Letter case is not judged: several decisions accept another case on the server side too.
    return values.length === 0 || values.some((v) => v.toLowerCase() === value.toLowerCase())
      ? undefined
      : `not one of ${values.join(', ')}`;
  }
  return FORMS[parameter.format].test(value) ? undefined : `not of the form ${parameter.format}`;
}
