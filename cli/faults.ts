/**
 * `conformance faults`: the sandbox's named faults, the behavioural fault families derived from
 * the operation table, or the MUST rows no fault proves.
 */
import { type Command, parse, UsageError } from './command.ts';

export const faults: Command = {
  help: {
    usage: ['faults [--describe]', 'faults --families', 'faults --unproven [--party server|client]'],
    summary: "list the sandbox's named faults (each breaks one documented rule)",
    options: [
      ['--describe', 'add what each fault breaks'],
      [
        '--families',
        'list every fault of the families derived from the operation table (server/faults/families.ts): name, the rule it breaks, what it does',
      ],
      ['--unproven', 'list the testable MUST rows no fault proves, each with why (spec/evidence/power.json)'],
      [
        '--party P',
        "with --unproven: server (the sandbox's faults, the default) or client (the reference client's faults, certify/clientFaults.ts)",
      ],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, {
      describe: { type: 'boolean' },
      unproven: { type: 'boolean' },
      families: { type: 'boolean' },
      party: { type: 'string' },
    });
    const party = (values.party as string | undefined) ?? 'server';
    if (party !== 'server' && party !== 'client')
      throw new UsageError(`--party must be server or client, received ${party}`);
    if (values.party !== undefined && !values.unproven) throw new UsageError('--party goes with --unproven');
    if (values.families) {
      const { familyFaults } = await import('../server/faults/families.ts');
      const all = familyFaults();
      for (const f of all) io.out(`${f.name}\tbreaks ${f.breaks}\t${f.description}`);
      io.out(`${all.length} family faults over ${new Set(all.map((f) => f.operations[0])).size} operations`);
      return 0;
    }
    if (values.unproven && party === 'client') {
      const { formatUnprovenClient } = await import('../certify/clientFaults.ts');
      for (const line of formatUnprovenClient()) io.out(line);
      return 0;
    }
    if (values.unproven) {
      const { formatUnproven, readPowerEvidence, rowFaultProofs, unprovenRows, testableMustRows } = await import(
        '../app/power.ts'
      );
      const { FAULTS } = await import('../server/faults/catalog.ts');
      const evidence = readPowerEvidence();
      const proofs = rowFaultProofs(FAULTS);
      // Rows power.json leaves unproven that a row fault proves (the self-test asserts it).
      const byRowFaults = testableMustRows().filter((r) => proofs.has(r.id) && evidence.rows[r.id]?.proven !== true);
      for (const line of formatUnproven(unprovenRows(evidence, proofs), evidence, byRowFaults.length)) io.out(line);
      return 0;
    }
    const { FAULTS } = await import('../server/faults/catalog.ts');
    for (const f of FAULTS) io.out(values.describe ? `${f.name}\t${f.description}` : f.name);
    return 0;
  },
};
