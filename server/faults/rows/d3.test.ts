/** Every Document 3 row fault changes the sandbox's answer where the clean sandbox keeps the rule. */
import { D3_ROW_FAULTS } from './d3.ts';
import { describeRowFaults, type Scenario } from './scenarios.ts';

const SCENARIOS: Record<string, Scenario> = {};

describeRowFaults('Document 3', D3_ROW_FAULTS, SCENARIOS);
