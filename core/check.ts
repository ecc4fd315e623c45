/**
 * The check model (DESIGN.md, "The unit of work: a check"). A check is small and pure: it reads a
 * subject (usually one recorded exchange) and returns a finding. It never throws for the target's
 * misbehaviour; severity and requirement ids are bound where the check is used.
 */
import type { RespondedExchange } from './exchange.ts';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface Finding {
  outcome: Outcome;
  /** For failures: `Expected X, received Y`. For passes: what was seen. */
  message: string;
  evidence?: Record<string, unknown>;
  /**
   * For a failure about members of a body (a schema failure): the JSON pointers of the members
   * that failed. The result then also cites the operation's rows about those members at its level
   * (spec/memberRows.ts), so a shape failure names the requirement it breaks (issue 24).
   */
  members?: readonly string[];
}

export interface Check<S = RespondedExchange> {
  /** Kebab-case assertion name; parameterised checks share one id across their parameters. */
  id: string;
  summary: string;
  /** False when the check does not apply to this subject (recorded as `skip`). */
  appliesTo?: (subject: S) => boolean;
  run: (subject: S) => Finding;
}

export function pass(message = 'as expected', evidence?: Record<string, unknown>): Finding {
  return { outcome: 'pass', message, evidence };
}

export function fail(message: string, evidence?: Record<string, unknown>): Finding {
  return { outcome: 'fail', message, evidence };
}

export function skip(message: string): Finding {
  return { outcome: 'skip', message };
}

/** Short, single-line rendering of a value for messages. */
export function show(value: unknown, max = 120): string {
  let text: string;
  if (value === undefined) text = '<absent>';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
