/** `conformance verify-report`: exit 0 when the folder is as the run wrote it, 1 when altered, 2 when it cannot be read. */
import { type Command, EXIT, parse, UsageError } from './command.ts';

const FILE_STATE_TEXT: Record<string, string> = {
  matches: 'matches results.json',
  altered: 'ALTERED (differs from what results.json gives)',
  missing: 'missing',
  'not-comparable': 'not compared (written by another suite version)',
};

export const verifyReport: Command = {
  help: {
    usage: ['verify-report DIR'],
    summary: 'check that a report folder is as its run wrote it (exit 0 intact, 1 altered)',
  },
  async run(argv, io) {
    const { positionals } = parse(argv, {}, true);
    const [dir, ...extra] = positionals;
    if (dir === undefined || extra.length > 0) throw new UsageError('verify-report needs exactly one report folder');
    const { verifyReportDir } = await import('../../reports/writeReports.ts');
    let v: Awaited<ReturnType<typeof verifyReportDir>>;
    try {
      v = await verifyReportDir(dir);
    } catch (e) {
      io.err(`conformance: ${(e as Error).message}`);
      return EXIT.usage;
    }
    const i = v.integrity;
    io.out(
      i.state === 'intact'
        ? `results.json: intact (SHA-256 ${i.digest})`
        : i.state === 'altered'
          ? `results.json: ALTERED (states SHA-256 ${i.stored}, content has ${i.actual})`
          : `results.json: NOT SEALED (no digest; content has SHA-256 ${i.actual})`,
    );
    for (const f of v.files) io.out(`${f.name}: ${FILE_STATE_TEXT[f.state]}`);
    io.out(v.intact ? `INTACT: ${v.dir} is as the run wrote it` : `ALTERED: ${v.dir} was changed after the run`);
    return v.intact ? 0 : EXIT.notConformant;
  },
};
