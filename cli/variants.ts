/** `conformance variants`: the sandbox's named variants, each a choice the documents allow. */
import { type Command, parse } from './command.ts';

/** At most `max` characters, cut at a word with an ellipsis. */
function shortened(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

export const variants: Command = {
  help: {
    usage: ['variants [--describe]', 'variants --silences'],
    summary: "list the sandbox's named variants (each a choice the documents allow)",
    options: [
      ['--describe', 'add what each variant changes and what allows it'],
      [
        '--silences',
        'list the register of silences (spec/silences.ts): each point the documents leave open, the decision and words it rests on, and the variants that prove the suite tolerates it, or NO VARIANT',
      ],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, { describe: { type: 'boolean' }, silences: { type: 'boolean' } });
    if (values.silences) {
      const { silenceRegister } = await import('../spec/silences.ts');
      const lines = silenceRegister();
      let proven = 0;
      let pending = 0;
      for (const { silence, words, pending: plan } of lines) {
        const shown =
          silence.variants.length > 0
            ? `${silence.client ? 'client choice ' : ''}${silence.variants.join(', ')}`
            : plan === undefined
              ? 'NO VARIANT'
              : `NO VARIANT (pending: ${shortened(plan, 90)})`;
        if (silence.variants.length > 0) proven += 1;
        else if (plan !== undefined) pending += 1;
        const http = silence.http === undefined ? '' : ` [HTTP: ${silence.http}]`;
        io.out(`${silence.id}\t${silence.decision}${http}\t${silence.choice}\t${shortened(words, 100)}\t${shown}`);
      }
      io.out(
        `${lines.length} silences: ${proven} with a variant, ${lines.length - proven} without (${pending} pending).`,
      );
      return 0;
    }
    const { VARIANTS } = await import('../server/variants/catalog.ts');
    for (const v of VARIANTS) {
      io.out(values.describe ? `${v.name}\t${v.description} Allowed by: ${v.allowedBy.join('; ')}.` : v.name);
    }
    return 0;
  },
};
