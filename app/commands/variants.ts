/** `conformance variants`: the sandbox's named variants, each a choice the documents allow. */
import { type Command, parse } from './command.ts';

export const variants: Command = {
  help: {
    usage: ['variants [--describe]'],
    summary: "list the sandbox's named variants (each a choice the documents allow)",
    options: [['--describe', 'add what each variant changes and what allows it']],
  },
  async run(argv, io) {
    const { values } = parse(argv, { describe: { type: 'boolean' } });
    const { VARIANTS } = await import('../../server/variants/catalog.ts');
    for (const v of VARIANTS) {
      io.out(values.describe ? `${v.name}\t${v.description} Allowed by: ${v.allowedBy.join('; ')}.` : v.name);
    }
    return 0;
  },
};
