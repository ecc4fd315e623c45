/** `conformance report`: rebuilds report.html, junit.xml and requirements-coverage.csv (and the Allure report) offline. */
import { type Command, EXIT, parse, UsageError } from './command.ts';

export const report: Command = {
  help: {
    usage: ['report RESULTS.json [--out DIR] [--allure [--allure-history FILE]]'],
    summary: 'rebuild report.html, junit.xml and requirements-coverage.csv from a results.json',
    options: [
      ['--out DIR', 'where to write them (default: beside results.json)'],
      ['--allure', 'also build the Allure report from allure-results beside results.json'],
      [
        '--allure-history FILE',
        "with --allure: Allure's history file (JSON Lines), read for trends and appended with this run; keep it between CI runs",
      ],
    ],
  },
  async run(argv, io) {
    const parsed = parse(
      argv,
      { out: { type: 'string' }, allure: { type: 'boolean' }, 'allure-history': { type: 'string' } },
      true,
    );
    const history = parsed.values['allure-history'] as string | undefined;
    if (history !== undefined && parsed.values.allure !== true)
      throw new UsageError('--allure-history is the history of the Allure report: give --allure too');
    const [file, ...extra] = parsed.positionals;
    if (file === undefined || extra.length > 0) throw new UsageError('report needs exactly one results.json file');
    const { rebuildReports } = await import('../reports/writeReports.ts');
    let rebuilt: Awaited<ReturnType<typeof rebuildReports>>;
    try {
      rebuilt = await rebuildReports(file, parsed.values.out as string | undefined);
    } catch (e) {
      io.err(`conformance: ${(e as Error).message}`);
      return EXIT.usage;
    }
    io.out(`Report: ${rebuilt.paths.reportHtml}`);
    io.out(`Also: ${rebuilt.paths.junitXml}, ${rebuilt.paths.coverageCsv}`);
    if (parsed.values.allure) {
      const { dirname, join, resolve } = await import('node:path');
      const { buildAllureReport } = await import('../reports/allureReport.ts');
      const resultsDir = join(dirname(resolve(file)), 'allure-results');
      const outDir = join(dirname(rebuilt.paths.reportHtml), 'allure-report');
      try {
        const built = await buildAllureReport(resultsDir, outDir, history ? { historyFile: history } : {});
        io.out(`Allure report: ${built.index}${built.historyFile ? ` (history: ${built.historyFile})` : ''}`);
      } catch (e) {
        io.err(`conformance: ${(e as Error).message.split('\n')[0]}`);
        return EXIT.usage;
      }
    }
    if (rebuilt.integrity.state !== 'intact') {
      io.err(
        `conformance: ${file} ${rebuilt.integrity.state === 'altered' ? 'was altered after the run (its digest does not match its content)' : 'carries no integrity digest'}; the rebuilt report says so`,
      );
      return EXIT.notConformant;
    }
    return 0;
  },
};
