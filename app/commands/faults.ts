/** `conformance faults`: the sandbox's named faults, or the MUST rows no fault proves. */
import { type Command, parse } from './command.ts';

export const faults: Command = {
  help: {
    usage: ['faults [--describe]', 'faults --unproven'],
    summary: "list the sandbox's named faults (each breaks one documented rule)",
    options: [
      ['--describe', 'add what each fault breaks'],
      ['--unproven', 'list the testable MUST rows no fault proves, each with why (spec/evidence/power.json)'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, { describe: { type: 'boolean' }, unproven: { type: 'boolean' } });
    if (values.unproven) {
      const { formatUnproven, unprovenRows } = await import('../power.ts');
      for (const line of formatUnproven(unprovenRows())) io.out(line);
      return 0;
    }
    const { FAULTS } = await import('../../server/faults/catalog.ts');
    for (const f of FAULTS) io.out(values.describe ? `${f.name}\t${f.description}` : f.name);
    return 0;
  },
};
