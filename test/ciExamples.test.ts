/**
 * The CI examples (examples/ci/) people paste: both files parse, the GitHub workflow shards with a
 * matrix whose size every `--shard I/N` agrees with, the merge job depends on the shards and
 * publishes JUnit, the GitLab pipeline does the same with `parallel`, and every `conformance`
 * command and option they use exists (checked against the command's own `--help`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { main } from '../bin/cli.ts';
import { ROOT } from './support/cli.ts';

type Yaml = Record<string, any>;
const read = (name: string) => parse(readFileSync(join(ROOT, 'examples', 'ci', name), 'utf8')) as Yaml;

/** Every `conformance SUBCOMMAND --option ...` invocation in a shell script, continuation lines joined. */
function invocations(script: string): { command: string; options: string[] }[] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  return [...joined.matchAll(/(?:^|[\s;&|])(?:npx\s+)?conformance\s+([a-z-]+)([^\n;&|]*)/g)].map((m) => ({
    command: m[1],
    options: [...m[2].matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((o) => o[1]),
  }));
}

async function helpOf(command: string): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await main([command, '--help'], { out: (l) => (text += `${l}\n`), err: (l) => (text += `${l}\n`) });
  return { code, text };
}

/** Problems of a script's invocations: unknown commands, or options their help does not list. */
async function problems(script: string): Promise<string[]> {
  const found: string[] = [];
  for (const { command, options } of invocations(script)) {
    const help = await helpOf(command);
    if (help.code !== 0 || !help.text.startsWith(`Usage:\n  conformance ${command}`)) {
      found.push(`unknown command ${command}`);
      continue;
    }
    for (const option of options) {
      if (!new RegExp(`(^|\\s|\\[)${option}(\\s|=|\\]|$)`, 'm').test(help.text)) found.push(`${command} ${option}`);
    }
  }
  return found;
}

const scripts = (steps: { run?: string }[]) => steps.flatMap((s) => (s.run ? [s.run] : []));

describe('the extraction of commands (so the checks below can fail)', () => {
  test('finds commands and options across continuation lines, and flags what does not exist', async () => {
    const script =
      'set +e\nnpx conformance run --target "$T" \\\n  --shard 1/3 --quiet\nconformance merge a b --report-dir x\n';
    expect(invocations(script)).toEqual([
      { command: 'run', options: ['--target', '--shard', '--quiet'] },
      { command: 'merge', options: ['--report-dir'] },
    ]);
    expect(await problems(script)).toEqual([]);
    expect(await problems('npx conformance run --target x --shards 1/3\nnpx conformance judge x')).toEqual([
      'run --shards',
      'unknown command judge',
    ]);
  });
});

describe('examples/ci/github-actions.yml', () => {
  const workflow = read('github-actions.yml');

  test('a matrix of shards, a merge that needs them, JUnit published, reports uploaded', () => {
    const shards = workflow.jobs.shard.strategy.matrix.shard as number[];
    expect(shards).toEqual(Array.from({ length: shards.length }, (_, i) => i + 1));
    expect(workflow.jobs.shard.strategy['fail-fast']).toBe(false);
    const shardRuns = scripts(workflow.jobs.shard.steps).join('\n');
    const counts = [...shardRuns.matchAll(/--shard (?:\$\{\{[^}]*\}\}|\S+)\/(\d+)/g)].map((m) => Number(m[1]));
    expect(counts.length).toBeGreaterThan(0);
    expect(new Set(counts)).toEqual(new Set([shards.length]));
    expect(workflow.jobs.merge.needs).toBe('shard');
    const mergeRun = scripts(workflow.jobs.merge.steps).join('\n');
    const parts = /conformance merge ((?:\S+\s+)+)--report-dir/
      .exec(mergeRun.replace(/\\\n\s*/g, ' '))?.[1]
      .trim()
      .split(/\s+/);
    expect(parts).toHaveLength(shards.length);
    const uses = (job: string) => (workflow.jobs[job].steps as { uses?: string }[]).map((s) => s.uses ?? '');
    expect(uses('shard')).toContain('actions/upload-artifact@v4');
    expect(uses('merge')).toEqual(
      expect.arrayContaining(['actions/download-artifact@v4', 'actions/upload-artifact@v4']),
    );
    const junit = (workflow.jobs.merge.steps as { with?: Record<string, string> }[]).find((s) =>
      String(s.with?.report_paths ?? '').endsWith('junit.xml'),
    );
    expect(junit).toBeDefined();
  });

  test('every conformance command and option it uses exists', async () => {
    const all = [...scripts(workflow.jobs.shard.steps), ...scripts(workflow.jobs.merge.steps)].join('\n');
    expect(
      invocations(all)
        .map((i) => i.command)
        .sort(),
    ).toEqual(['merge', 'run']);
    expect(await problems(all)).toEqual([]);
  });
});

describe('examples/ci/gitlab-ci.yml', () => {
  const pipeline = read('gitlab-ci.yml');

  test('parallel shards, a merge that needs them, JUnit as a report, the folder as an artefact', () => {
    const n = pipeline.conformance.parallel as number;
    expect(n).toBeGreaterThan(1);
    const shardScript = (pipeline.conformance.script as string[]).join('\n');
    expect(shardScript).toContain('--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"');
    expect(pipeline['conformance-merge'].needs).toEqual(['conformance']);
    const mergeScript = (pipeline['conformance-merge'].script as string[]).join('\n');
    const parts = /conformance merge ((?:\S+\s+)+)--report-dir/.exec(mergeScript)?.[1].trim().split(/\s+/);
    expect(parts).toHaveLength(n);
    expect(pipeline['conformance-merge'].artifacts.reports.junit).toBe('conformance-report/junit.xml');
    expect(pipeline['conformance-merge'].artifacts.paths).toContain('conformance-report/');
  });

  test('every conformance command and option it uses exists', async () => {
    const all = [...pipeline.conformance.script, ...pipeline['conformance-merge'].script].join('\n');
    expect(
      invocations(all)
        .map((i) => i.command)
        .sort(),
    ).toEqual(['merge', 'run']);
    expect(await problems(all)).toEqual([]);
  });
});
