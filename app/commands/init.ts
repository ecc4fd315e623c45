/** `conformance init`: a starter config, the demo config's shape with `$schema` pointing at the config schema. */
import { commandName } from '../../core/commandName.ts';
import { type Command, parse, UsageError } from './command.ts';

export const init: Command = {
  help: {
    usage: ['init [--out FILE] [--force]'],
    summary: 'write a starter config that names its JSON Schema (editor completion)',
    options: [
      ['--out FILE', 'where to write it (default conformance.config.json)'],
      ['--force', 'overwrite an existing file'],
    ],
  },
  async run(argv, io) {
    const { values } = parse(argv, { out: { type: 'string' }, force: { type: 'boolean' } });
    const out = (values.out as string | undefined) ?? 'conformance.config.json';
    const { existsSync, readFileSync, writeFileSync } = await import('node:fs');
    const { dirname, relative, resolve } = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    if (existsSync(out) && !values.force) throw new UsageError(`${out} exists; give --force to overwrite it`);
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const demo = JSON.parse(readFileSync(resolve(root, 'server/demo-config.json'), 'utf8')) as Record<string, unknown>;
    let schema = relative(dirname(resolve(out)), resolve(root, 'core/config.schema.json')).replaceAll('\\', '/');
    if (!schema.startsWith('.')) schema = `./${schema}`;
    const starter = { ...demo, $schema: schema };
    try {
      writeFileSync(out, `${JSON.stringify(starter, null, 2)}\n`, { flag: values.force ? 'w' : 'wx' });
    } catch (e) {
      throw new UsageError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    io.out(`Wrote ${out} (JSON Schema: ${schema}).`);
    io.out('Next: set the discovery addresses and the fixtures your target holds, export the credential');
    io.out('variables it names (CONFORMANCE_CLIENT_ID, ...), then:');
    io.out(`  ${commandName()} run --target https://your-server --config ${out}`);
    return 0;
  },
};
