/**
 * A secret echoed back encoded (issue 33, item 5): a target that returns the run's client secret
 * with JSON escapes (`\u0073`, `\/`), percent-encoded, and in base64 inside a Basic credential
 * leaves no readable secret in any artefact: every file of the report folder (report.html, which
 * reads bodies as JSON, above all) and the command's output are decoded every way a reader could
 * (JSON escapes, HTML entities, percent-encoding, base64 at every alignment) and searched. The same
 * scan over one answer of the target finds the secret, which proves it can.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { type CliResult, reportDir, runCli } from './support/cli.ts';
import { type EchoingTarget, readable as isReadable, startEchoingTarget } from './support/secretEcho.ts';

const CLIENT_ID = DEMO_ENVIRONMENT.CONFORMANCE_CLIENT_ID as string;
const SECRET = DEMO_ENVIRONMENT.CONFORMANCE_CLIENT_SECRET as string;

const readable = (text: string) => isReadable(text, SECRET);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

let sandbox: RunningSandbox;
let echo: EchoingTarget;
let dir = '';
let cli: CliResult;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  echo = await startEchoingTarget(sandbox.url, CLIENT_ID, SECRET);
  const url = echo.url;

  dir = reportDir();
  const configFile = join(reportDir(), 'config.json');
  writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')), target: url }));
  cli = await runCli(
    [
      'run',
      '--target',
      url,
      '--config',
      configFile,
      '--only',
      'find-member-v2,get-user-details,search-bills',
      '--runs',
      '3',
      '--seed',
      '5',
      '--report-dir',
      dir,
    ],
    { env: DEMO_ENVIRONMENT, timeoutMs: 200_000 },
  );
}, 240_000);

afterAll(async () => {
  await echo?.close();
  await sandbox?.close();
});

describe('a secret echoed back encoded', () => {
  test('the scan reads the secret in what the target answered (it can see it)', () => {
    expect(echo.oneAnswer()).toContain('echoEscaped');
    expect(echo.oneAnswer()).not.toContain(SECRET);
    expect(readable(echo.oneAnswer())).toBe(true);
  });

  test('no artefact of the run, nor its output, holds it in any reading', () => {
    const texts: Record<string, string> = { stdout: cli.stdout, stderr: cli.stderr };
    for (const f of filesUnder(dir)) texts[f.slice(dir.length + 1)] = readFileSync(f, 'utf8');
    expect(Object.keys(texts)).toEqual(expect.arrayContaining(['report.html', 'results.json', 'junit.xml']));
    // The echoes were recorded (masked), so the scan looked at them.
    expect(texts['results.json']).toContain('echoEscaped');
    expect(
      Object.entries(texts)
        .filter(([, t]) => readable(t))
        .map(([where]) => where),
    ).toEqual([]);
  });
});
