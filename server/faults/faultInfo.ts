/** What the catalogue says of a named fault (catalog.ts lists them; rows/ holds the row faults). */
export interface FaultInfo {
  name: string;
  kind: string;
  rule: string;
  description: string;
  operations: string[];
  expectedCheck: string;
  /**
   * Where the expected check is bound at SHOULD (it records `warn`, never a MUST failure): the
   * fault is caught by a warning of that check. Absent: MUST, caught by a failure.
   */
  expectedLevel?: 'SHOULD';
  /**
   * The requirement rows the fault is written to prove (issue 30): the self-test asserts that a
   * failure crediting the fault cites each of them. Absent: the rows its failures cite.
   */
  rows?: readonly string[];
}
