/** `conformance operations`: the operation table, one line each (or JSON). */
import { type Command, parse, UsageError } from './command.ts';

export const operations: Command = {
  help: {
    usage: ['operations [--only LIST] [--json]'],
    summary: 'list the operations with their document, section, method and flags',
    options: [
      ['--only LIST', 'as for run: ids with * wildcards, or a document (D1, D2, D3)'],
      ['--json', 'one JSON array instead of a table'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, { only: { type: 'string' }, json: { type: 'boolean' } });
    const { selectOperations } = await import('../app/selectOperations.ts');
    let ops: ReturnType<typeof selectOperations>;
    try {
      ops = selectOperations(values.only as string | undefined);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const flags = (o: (typeof ops)[number]) =>
      [
        o.destructive ? 'destructive' : '',
        o.reservedForOperator ? 'reserved' : '',
        /deprecated/i.test(o.summary) ? 'deprecated' : '',
      ].filter(Boolean);
    if (values.json) {
      io.out(
        JSON.stringify(
          ops.map((o) => ({
            id: o.id,
            document: o.document,
            section: o.section,
            service: o.service,
            method: o.method,
            path: o.documentedPath,
            summary: o.summary,
            flags: flags(o),
          })),
          null,
          2,
        ),
      );
      return 0;
    }
    const width = Math.max(...ops.map((o) => o.id.length));
    for (const o of ops) {
      io.out(
        `${o.id.padEnd(width)}  ${o.document}  §${o.section.padEnd(6)} ${o.method.padEnd(6)} ${o.summary}${flags(o).length ? `  [${flags(o).join(', ')}]` : ''}`,
      );
    }
    return 0;
  },
};
