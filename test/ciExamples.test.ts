/**
 * The CI examples people paste (examples/ci/): both files parse; the GitHub workflow shards with a
 * matrix whose size every `--shard I/N` agrees with, and its merge job needs the shards, publishes
 * JUnit and uploads the report; the GitLab pipeline does the same with `parallel`; the shard step
 * fails only for exit 2, 4 or a missing results.json (run in bash with a stand-in for npx); the seed
 * is the same for every shard and within the range `--seed` accepts; and every `conformance`
 * command and option they use exists, checked against the real command's own `--help`.
 *
 * Why a misspelling fails here: each `conformance SUBCOMMAND ...` in a script is extracted with its
 * `--options`; `conformance SUBCOMMAND --help` is run for real, and an unknown subcommand exits 2
 * with no "Usage:\n  [npx ]conformance SUBCOMMAND" (reported as "unknown command X"), while an option
 * absent from that help text is reported as "SUBCOMMAND --option". Every check expects no problem,
 * and the first test shows both reports on a script with a misspelt command and option.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { type CliResult, ROOT, reportDir, runCli } from './support/cli.ts';

type Yaml = Record<string, any>;
const read = (name: string) => parse(readFileSync(join(ROOT, 'examples', 'ci', name), 'utf8')) as Yaml;

/** A shell script with its continuation lines joined and its comment lines dropped. */
const logical = (script: string) =>
  script
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');

/** Every `[npx] conformance SUBCOMMAND ...` invocation in a shell script, with the `--options` it passes. */
function invocations(script: string): { command: string; options: string[] }[] {
  return [...logical(script).matchAll(/(?:^|[\s;&|(])(?:npx\s+)?conformance\s+([A-Za-z][\w-]*)([^\n;&|]*)/g)].map(
    (m) => ({
      command: m[1],
      options: [...m[2].matchAll(/(?:^|\s)(--[A-Za-z0-9][\w-]*)/g)].map((o) => o[1]),
    }),
  );
}

/** `conformance COMMAND --help`, run once per command (the real command, in a child process). */
const helps = new Map<string, Promise<CliResult>>();
function helpOf(command: string): Promise<CliResult> {
  let help = helps.get(command);
  if (!help) {
    help = runCli([command, '--help'], { timeoutMs: 30000 });
    helps.set(command, help);
  }
  return help;
}

/** Problems of a script's invocations: unknown commands, or options their help does not list. */
async function problems(script: string): Promise<string[]> {
  const found: string[] = [];
  for (const { command, options } of invocations(script)) {
    const help = await helpOf(command);
    if (help.code !== 0 || !new RegExp(`^Usage:\\n {2}(npx )?conformance ${command}\\b`).test(help.stdout)) {
      found.push(`unknown command ${command}`);
      continue;
    }
    for (const option of options) {
      if (!new RegExp(`(^|[\\s\\[])${option}([\\s=\\]]|$)`, 'm').test(help.stdout)) found.push(`${command} ${option}`);
    }
  }
  return found;
}

/**
 * Runs a shard's script in bash as CI does (-e, pipefail) with a stand-in for `npx` that writes
 * results.json into the --report-dir (unless told not to) and exits with the given code; returns
 * bash's exit status.
 */
function shardStepStatus(script: string, code: number, writesResults: boolean): number | null {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-ci-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'npx'),
    [
      '#!/bin/sh',
      'dir=""',
      'while [ $# -gt 0 ]; do [ "$1" = --report-dir ] && dir="$2"; shift; done',
      '[ -n "$WRITES" ] && mkdir -p "$dir" && echo "{}" > "$dir/results.json"',
      'exit "$CODE"',
      '',
    ].join('\n'),
  );
  chmodSync(join(bin, 'npx'), 0o755);
  // Only the judging step belongs here: any other npm command (npm ci) fails instead of installing.
  writeFileSync(join(bin, 'npm'), '#!/bin/sh\necho "npm $* is not part of the judging step" >&2\nexit 99\n');
  chmodSync(join(bin, 'npm'), 0o755);
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      CODE: String(code),
      WRITES: writesResults ? '1' : '',
      GITHUB_RUN_ID: '12345678901',
      CI_PIPELINE_ID: '12345678901',
      CI_NODE_INDEX: '1',
      CI_NODE_TOTAL: '3',
      TARGET: 'https://staging.example.org',
      CONFORMANCE_TARGET: 'https://staging.example.org',
    },
  });
  rmSync(dir, { recursive: true, force: true });
  return result.status;
}

/** The largest seed `conformance run` accepts, read from its own usage error for a seed too large (asked once). */
let largest: Promise<number> | undefined;
const largestSeed = () => {
  largest ??= askLargestSeed();
  return largest;
};
async function askLargestSeed(): Promise<number> {
  const cli = await runCli(
    ['run', '--target', 'http://127.0.0.1:9', '--seed', '99999999999999', '--report-dir', reportDir(), '--quiet'],
    { timeoutMs: 30000 },
  );
  expect(cli.code).toBe(2);
  const max = /--seed must be an integer from 0 to (\d+)/.exec(cli.stderr)?.[1];
  expect(max).toBeDefined();
  return Number(max);
}

/** The seed a shard script computes (its `seed=...` line, run in bash for a given CI id). */
function seedOf(script: string, id: string): number {
  const line = /^[ \t]*seed=.*$/m.exec(script)?.[0];
  expect(line).toBeDefined();
  expect(line).not.toMatch(/matrix|CI_NODE_INDEX/); // the same in every shard
  const out = spawnSync('bash', ['-c', `${line}\necho "$seed"`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, GITHUB_RUN_ID: id, CI_PIPELINE_ID: id },
  });
  expect(out.status).toBe(0);
  return Number(out.stdout.trim());
}

/** The one script (a GitHub step's run, a GitLab script item) that runs `conformance run`. */
function judgeStep(scripts: string[]): string {
  const found = scripts.filter((s) => invocations(s).some((i) => i.command === 'run'));
  expect(found).toHaveLength(1);
  return found[0];
}

/** The checks both examples share: the shard step's gating, its seed, and the commands and options. */
function sharedChecks(shardScripts: () => string[], mergeScript: () => string) {
  const shardScript = () => shardScripts().join('\n');
  test('a shard fails only for exit 2 or 4 or a missing results.json; its verdict is not the gate', () => {
    const step = judgeStep(shardScripts());
    for (const code of [0, 1, 3, 130]) expect(shardStepStatus(step, code, true), `exit ${code}`).toBe(0);
    for (const code of [2, 4]) expect(shardStepStatus(step, code, true), `exit ${code}`).not.toBe(0);
    expect(shardStepStatus(step, 0, false), 'no results.json').not.toBe(0);
  });

  test('every shard gets one seed, within the range --seed accepts', async () => {
    const max = await largestSeed();
    for (const id of ['1', '2147483648', '12345678901', '99999999999']) {
      const seed = seedOf(shardScript(), id);
      expect(Number.isInteger(seed) && seed >= 0 && seed <= max, `seed ${seed} of id ${id}`).toBe(true);
    }
    expect(logical(shardScript())).toMatch(/conformance run .*--seed "\$seed"/);
  });

  test('every conformance command and option it uses exists; none is destructive', async () => {
    expect(invocations(shardScript()).map((i) => i.command)).toEqual(['run']);
    expect(invocations(mergeScript()).map((i) => i.command)).toEqual(['merge']);
    const all = `${shardScript()}\n${mergeScript()}`;
    expect(await problems(all)).toEqual([]);
    // A staging server's data is not the suite's to change: destructive steps are opt-in.
    expect(invocations(all).flatMap((i) => i.options)).not.toContain('--allow-destructive');
  });
}

/** The folders `conformance merge` is given, before --report-dir. */
const mergedParts = (script: string) =>
  /conformance merge ((?:\S+\s+)+)--report-dir/.exec(logical(script))?.[1].trim().split(/\s+/);

describe('the extraction of commands and options (so the checks below can fail)', () => {
  test('finds them across continuation lines, and flags a misspelt command or option', async () => {
    const script =
      'set +e\n# conformance judge is a comment\nnpx conformance run --target "$T" \\\n  --shard 1/3 --quiet\nconformance merge a b --report-dir x\n';
    expect(invocations(script)).toEqual([
      { command: 'run', options: ['--target', '--shard', '--quiet'] },
      { command: 'merge', options: ['--report-dir'] },
    ]);
    expect(await problems(script)).toEqual([]);
    const bad = 'npx conformance run --target x --shards 1/3\nnpx conformance judge x\nconformance merge a --seed 1';
    expect(await problems(bad)).toEqual(['run --shards', 'unknown command judge', 'merge --seed']);
  });
});

describe('examples/ci/github-actions.yml', () => {
  const workflow = read('github-actions.yml');
  const scripts = (job: string) =>
    (workflow.jobs[job].steps as { run?: string }[]).flatMap((s) => (s.run ? [s.run] : []));
  const runs = (job: string) => scripts(job).join('\n');
  // GitHub substitutes the matrix value before bash sees the script (here: shard 1).
  const matrixShard = /\$\{\{\s*matrix\.shard\s*\}\}/g;

  test('a matrix of shards 1..N, every --shard I/N with that N, a merge of N parts that needs them', () => {
    const { strategy } = workflow.jobs.shard;
    const shards = strategy.matrix.shard as number[];
    expect(shards).toEqual(Array.from({ length: shards.length }, (_, i) => i + 1));
    expect(strategy['fail-fast']).toBe(false);
    const all = [...logical(runs('shard').replace(matrixShard, 'I')).matchAll(/--shard\s+(\S+)/g)].map((m) => m[1]);
    expect(all.length).toBeGreaterThan(0);
    for (const value of all) expect(value.replaceAll('"', '')).toBe(`I/${shards.length}`);
    expect(workflow.jobs.merge.needs).toBe('shard');
    expect(workflow.jobs.merge.if).toBe('always()');
    expect(mergedParts(runs('merge'))).toEqual(shards.map((i) => `conformance-shard-${i}`));
  });

  test('each shard uploads its folder; the merge downloads them, publishes JUnit, uploads the report', () => {
    type Step = { uses?: string; if?: string; with?: Record<string, string> };
    const steps = (job: string) => workflow.jobs[job].steps as Step[];
    const upload = steps('shard').find((s) => s.uses === 'actions/upload-artifact@v4');
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.name.replace(matrixShard, 'I')).toBe('conformance-shard-I');
    expect(upload?.with?.path.replace(matrixShard, 'I')).toBe('report-I/');
    const download = steps('merge').find((s) => s.uses === 'actions/download-artifact@v4');
    expect(download?.with?.pattern).toBe('conformance-shard-*');
    const junit = steps('merge').find((s) => String(s.with?.report_paths ?? '').endsWith('junit.xml'));
    expect(junit).toMatchObject({ if: 'always()', with: { report_paths: 'conformance-report/junit.xml' } });
    expect(workflow.jobs.merge.permissions?.checks).toBe('write');
    const report = steps('merge').find((s) => s.uses === 'actions/upload-artifact@v4');
    expect(report).toMatchObject({ if: 'always()', with: { path: 'conformance-report/' } });
  });

  sharedChecks(
    () => scripts('shard').map((s) => s.replace(matrixShard, '1')),
    () => runs('merge'),
  );
});

describe('examples/ci/gitlab-ci.yml', () => {
  const pipeline = read('gitlab-ci.yml');
  const shardScripts = () => pipeline.conformance.script as string[];
  const shardScript = () => shardScripts().join('\n');
  const mergeScript = () => (pipeline['conformance-merge'].script as string[]).join('\n');

  test('parallel shards, a merge of N parts that needs them, JUnit as a report, the folder as an artefact', () => {
    const n = pipeline.conformance.parallel as number;
    expect(n).toBeGreaterThan(1);
    const all = [...logical(shardScript()).matchAll(/--shard\s+(\S+)/g)].map((m) => m[1]);
    expect(all).toEqual(['"$CI_NODE_INDEX/$CI_NODE_TOTAL"']);
    expect(pipeline.conformance.artifacts).toMatchObject({ when: 'always', paths: ['report-$CI_NODE_INDEX/'] });
    const merge = pipeline['conformance-merge'];
    expect(pipeline.stages.indexOf(merge.stage)).toBeGreaterThan(pipeline.stages.indexOf(pipeline.conformance.stage));
    expect(merge.needs).toEqual(['conformance']);
    expect(merge.when).toBe('always');
    expect(mergedParts(mergeScript())).toEqual(Array.from({ length: n }, (_, i) => `report-${i + 1}`));
    expect(merge.artifacts.reports.junit).toBe('conformance-report/junit.xml');
    expect(merge.artifacts.paths).toContain('conformance-report/');
    expect(merge.artifacts.when).toBe('always');
  });

  sharedChecks(shardScripts, mergeScript);
});
