/**
 * A probe shows that a variant changes what the sandbox answers: test/variants.test.ts sends it to
 * the clean sandbox and to one with the variant on, and requires the answers to differ (status,
 * Content-Type or body text). A variant that changes nothing proves nothing.
 */
import type { Answer, TestSandbox } from '../../server/testSupport.ts';

export type Probe = (sandbox: TestSandbox) => Promise<Answer>;
export type Probes = Readonly<Record<string, Probe>>;
