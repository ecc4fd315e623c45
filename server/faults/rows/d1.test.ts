/** Every Document 1 row fault changes the sandbox's answer where the clean sandbox keeps the rule. */
import { D1_ROW_FAULTS } from './d1.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

const SCENARIOS: Record<string, Scenario> = {};

describeRowFaults('Document 1', D1_ROW_FAULTS, SCENARIOS);
