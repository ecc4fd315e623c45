/** `conformance openapi`: the OpenAPI 3.1 documents, one file per service and one for the family. */
import { type Command, outFolder, parse, UsageError } from './command.ts';

export const openapi: Command = {
  help: {
    usage: ['openapi [--out DIR]'],
    summary: 'write the OpenAPI 3.1 documents (the family and one per service), generated from the operation table',
    options: [['--out DIR', 'where to write them (default conformance-openapi)']],
  },
  async run(argv, io) {
    const { values } = parse(argv, { out: { type: 'string' } });
    const out = (values.out as string | undefined) ?? 'conformance-openapi';
    if (out === '') throw new UsageError('--out must not be empty');
    outFolder(out);
    const { writeOpenApi } = await import('../openapi/writeOpenApi.ts');
    let written: string[];
    try {
      written = writeOpenApi(out);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === undefined) throw e;
      throw new UsageError(`cannot write into ${out}: ${code}`);
    }
    for (const file of written) io.out(file);
    return 0;
  },
};
