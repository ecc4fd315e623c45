/** Every Document 2 row fault changes the sandbox's answer where the clean sandbox keeps the rule. */
import { D2_ROW_FAULTS } from './d2.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

const SCENARIOS: Record<string, Scenario> = {};

describeRowFaults('Document 2', D2_ROW_FAULTS, SCENARIOS);
