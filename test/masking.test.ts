/**
 * End-to-end masking scan: the real command against the real sandbox, then every artefact (every
 * file of the report folder, recursively, and the command's own output) is searched for personal
 * data the sandbox is known to hold and for the configured secrets. With `--evidence full` the same
 * personal values must be found, which proves the scan can see them.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Fixtures } from '../core/configTypes.ts';
import { MASK, Redactor } from '../core/redact.ts';
import type { RunResults } from '../core/results.ts';
import { DEMO_CONFIG_FILE } from '../server/demoConfig.ts';

import { startSandbox, type RunningSandbox } from '../server/http.ts';
import { reportDir, runCli, type CliResult } from './support/cli.ts';

const DEMO_CONFIG = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as Record<string, unknown>;

/**
 * Personal data of seeded members, patients and users (server/fixtures) that the selected
 * operations carry in their exchanges: names, birth dates, membership numbers, an address line,
 * postcodes, a phone number and an email address.
 */
const PERSONAL = [
  'Smith', // members COV-0001 / hospital claims / PAT-0001: family name
  'Taylor', // member COV-0007 (BUP100001): family name
  'Sarah', // member COV-0007: given name
  '1980-04-12', // member COV-0001: birth date
  '1975-09-30', // patient PAT-0002 / members COV-0002, COV-0003: birth date
  'PPP100001', // member COV-0001: membership number
  'BUP100001', // member COV-0007, bills: membership number
  '1 Horse Guards Road', // member COV-0001: address line
  'SW1A 2HQ', // member COV-0001: postcode
  '22 Deansgate', // member COV-0007: address line
  '07700 900002', // patient PAT-0002: phone (sms)
  'alice.archer@sandbox.example', // user alice: login email
] as const;

/** Secrets set through the environment variables the config names (the sandbox's demo clients accept them). */
const ENV = {
  CONFORMANCE_CLIENT_ID: 'sandbox-client',
  CONFORMANCE_CLIENT_SECRET: 'sandbox-secret',
  CONFORMANCE_USER_NAME: 'alice',
  CONFORMANCE_USER_PASSWORD: 'alice-password',
  CONFORMANCE_USER2_NAME: 'bob',
  CONFORMANCE_USER2_PASSWORD: 'bob-password',
  CONFORMANCE_NOACCOUNT_CLIENT_ID: 'sandbox-noaccount',
  CONFORMANCE_NOACCOUNT_CLIENT_SECRET: 'sandbox-noaccount-secret',
  CONFORMANCE_INACTIVE_CLIENT_ID: 'sandbox-inactive',
  CONFORMANCE_INACTIVE_CLIENT_SECRET: 'sandbox-inactive-secret',
};
const SECRETS = [ENV.CONFORMANCE_CLIENT_SECRET, ENV.CONFORMANCE_USER_PASSWORD];

const ONLY =
  'find-member-v1,find-member-v2,search-bills,get-bill,search-hospital-claims,list-hospital-claims,*-patient,get-user-details';

/** The forms a value takes in an artefact: raw, URL-encoded (%20 and form `+`), JSON-escaped. */
function formsOf(value: string): string[] {
  return [
    ...new Set([
      value,
      encodeURIComponent(value),
      new URLSearchParams({ v: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1),
    ]),
  ];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Where each form of each value occurs: `value (form) in file`. */
function occurrences(values: readonly string[], texts: Record<string, string>): string[] {
  const found: string[] = [];
  for (const value of values) {
    for (const form of formsOf(value)) {
      for (const [where, text] of Object.entries(texts))
        if (text.includes(form)) found.push(`${value} (${form}) in ${where}`);
    }
  }
  return found;
}

function artefacts(dir: string, cli: CliResult): Record<string, string> {
  const texts: Record<string, string> = { stdout: cli.stdout, stderr: cli.stderr };
  for (const file of filesUnder(dir)) texts[file.slice(dir.length + 1)] = readFileSync(file, 'utf8');
  return texts;
}

interface Run {
  dir: string;
  cli: CliResult;
  texts: Record<string, string>;
}

/** One run of the command against its own fresh sandbox (so that two runs never share state). */
async function run(evidence: 'masked' | 'full'): Promise<Run> {
  const sandbox: RunningSandbox = await startSandbox({ port: 0 });
  try {
    const dir = reportDir();
    // Beside, not inside, the report folder: the config names fixture values the scan looks for.
    const configFile = join(reportDir(), 'config.json');
    // The built-in defaults as a file: with a file, secrets come only from the environment.
    writeFileSync(configFile, JSON.stringify({ ...DEMO_CONFIG, target: sandbox.url }));
    const cli = await runCli(
      [
        'run',
        '--target',
        sandbox.url,
        '--config',
        configFile,
        '--only',
        ONLY,
        '--allow-destructive',
        '--seed',
        '7',
        '--runs',
        '5',
        '--report-dir',
        dir,
        '--evidence',
        evidence,
      ],
      { env: ENV, timeoutMs: 110_000 },
    );
    return { dir, cli, texts: artefacts(dir, cli) };
  } finally {
    await sandbox.close();
  }
}

describe('personal data and secrets in the artefacts of a run', () => {
  let masked: Run;
  let full: Run;

  // Both runs at once: most of a run is starting vitest, which the two can share the wait for.
  beforeAll(async () => {
    [masked, full] = await Promise.all([run('masked'), run('full')]);
  }, 120_000);

  test('masked (the default): no known personal value and no secret in any artefact', () => {
    expect(masked.cli.code, masked.cli.stderr).toBe(0);
    expect(Object.keys(masked.texts)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html']));
    expect(occurrences([...PERSONAL, ...SECRETS], masked.texts)).toEqual([]);
  });

  test('masked: messages stay readable, a mask never stands inside a word (masking by value, issue 22, item 7)', () => {
    const results = JSON.parse(masked.texts['results.json']) as RunResults;
    // A masked birth date may stand before the time of a date-time (`****T09:30`): a whole token.
    const glued = results.results
      .map((r) => r.message)
      .filter((m) => /\p{L}\*{4}|\*{4}\p{L}/u.test(m.replace(/\*{4}T\d{2}:/g, '')));
    expect(glued).toEqual([]);
  });

  test('full: the personal values are there (the scan can find them), the secrets still are not', () => {
    expect(full.cli.code, full.cli.stderr).toBe(0);
    const results = full.texts['results.json'];
    expect(PERSONAL.filter((v) => !results.includes(v))).toEqual([]);
    expect(occurrences(SECRETS, full.texts)).toEqual([]);
  });
});

/**
 * The over-masking the review found ("Parameter content in****id", "status read is not a known
 * ****ue", "to be ****used"), in the context of a run against the sandbox: its demo config's
 * fixtures and secrets, and generated values the random phase and the patient lifecycle send
 * (`val` as a membership number, `ref` as a family name). No sandbox needed: the redactor alone.
 */
describe('masking by value in the context of a sandbox run', () => {
  const fixtures = DEMO_CONFIG.fixtures as Fixtures;
  const redactor = () => Redactor.forRun({ secrets: SECRETS, evidence: 'masked', fixtures });
  const outcome = JSON.stringify({
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'exception',
        details: { coding: [{ code: 'MSG_PARAM_INVALID', display: 'Parameter content invalid' }] },
        diagnostics: 'status read is not a known value',
      },
    ],
  });
  const learn = (r: Redactor) => {
    r.exchange({
      id: 'a',
      operation: 'search-authorisation',
      startedAt: '',
      durationMs: 1,
      request: {
        method: 'POST',
        url: 'http://h/authorisations',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'insurerIdentifier=nuh&membershipNumber=val&status=read',
      },
      response: {
        status: 422,
        headers: { 'content-type': 'application/json' },
        bodyText: outcome,
        size: 1,
        truncated: false,
      },
    });
    const patient = JSON.stringify({ resourceType: 'Patient', name: [{ family: 'ref', given: ['Inval'] }] });
    r.exchange({
      id: 'p',
      operation: 'create-patient',
      startedAt: '',
      durationMs: 1,
      request: { method: 'POST', url: 'http://h/patients/patient/', headers: {}, body: patient },
      response: {
        status: 201,
        headers: { 'content-type': 'application/json' },
        bodyText: patient,
        size: 1,
        truncated: false,
      },
    });
  };

  test("the three messages of the review read whole; the run's personal values are masked in the same messages", () => {
    const r = redactor();
    learn(r);
    const messages = [
      'Parameter content invalid',
      'status read is not a known value',
      'Expected deleted patient 1001 to be refused with 404, received HTTP 200',
      'received',
      'valid',
      'InvalidId',
      'Expected HTTP 200, received HTTP 404',
    ];
    for (const m of messages) expect(r.text(m)).toBe(m);
    expect(r.text('Expected Smith born 1980-04-12 (BUP100001, Inval) to be refused, received HTTP 200')).toBe(
      `Expected ${MASK} born ${MASK} (${MASK}, ${MASK}) to be refused, received HTTP 200`,
    );
    expect(r.text(`client ${ENV.CONFORMANCE_CLIENT_SECRET}, x${ENV.CONFORMANCE_USER_PASSWORD}x`)).toBe(
      `client ${MASK}, x${MASK}x`,
    );
  });
});
