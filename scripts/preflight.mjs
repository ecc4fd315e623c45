#!/usr/bin/env node
// The first step of `npm test` and `npm run test:full`: the browser tests (test/browser.test.ts) drive Debian's Chromium,
// never a downloaded browser. When it is missing, it is installed where that needs no one's
// password (root, or sudo without a password, on Debian), as .ci/run always did; otherwise the
// test command stops at once with the one command to run, instead of failing minutes later.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const INSTALL_COMMAND = 'sudo apt-get update && sudo apt-get install -y chromium';
/** The command its lines name: the npm script that ran it (`npm test`, `npm run test:full`), `npm test` otherwise. */
const event = process.env.npm_lifecycle_event;
const COMMAND = event && event !== 'test' ? `npm run ${event}` : 'npm test';
/** EX_UNAVAILABLE (sysexits.h): a program the tests need is not there. Distinct from a failing test (1). */
export const EXIT_NO_CHROMIUM = 69;

/**
 * What to do, from what was found.
 * @param {{ chromium: string, custom: boolean, present: boolean, debian: boolean, aptGet: boolean, root: boolean, sudo: boolean }} found
 * @returns {{ action: 'ok' } | { action: 'install', sudo: boolean } | { action: 'stop', line: string }}
 */
export function plan(found) {
  if (found.present) return { action: 'ok' };
  if (found.custom) {
    return {
      action: 'stop',
      line: `${COMMAND}: CONFORMANCE_CHROMIUM names ${found.chromium}, which is not an executable; point it at Chromium, or unset it and run: ${INSTALL_COMMAND}`,
    };
  }
  if (found.debian && found.aptGet && (found.root || found.sudo)) return { action: 'install', sudo: !found.root };
  return {
    action: 'stop',
    line: `${COMMAND}: the browser test needs Chromium at ${found.chromium}; install it first: ${INSTALL_COMMAND}`,
  };
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDebian() {
  try {
    return /^ID=("?)debian\1$/m.test(readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

const succeeds = (command, args) => spawnSync(command, args, { stdio: 'ignore', timeout: 2000 }).status === 0;

/** What the machine offers. */
export function look(env = process.env) {
  const chromium = env.CONFORMANCE_CHROMIUM || DEFAULT_CHROMIUM;
  const present = executable(chromium);
  if (present) return { chromium, custom: Boolean(env.CONFORMANCE_CHROMIUM), present };
  const root = process.getuid?.() === 0;
  return {
    chromium,
    custom: Boolean(env.CONFORMANCE_CHROMIUM),
    present,
    debian: isDebian(),
    aptGet: succeeds('apt-get', ['--version']),
    root,
    // -n: never ask for a password (a test command must not wait on one).
    sudo: !root && succeeds('sudo', ['-n', 'true']),
  };
}

function install(sudo) {
  const run = (args) => {
    const [command, ...rest] = sudo ? ['sudo', '-n', ...args] : args;
    return spawnSync(command, rest, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status;
  };
  process.stderr.write(`${COMMAND}: installing Debian's chromium for the browser test\n`);
  const updated = run(['apt-get', 'update', '-qq']);
  if (updated !== 0) return `apt-get update ended with exit ${updated}`;
  const installed = run(['apt-get', 'install', '-y', '-qq', 'chromium']);
  return installed === 0 ? undefined : `apt-get install ended with exit ${installed}`;
}

function main() {
  const found = look();
  const next = plan(found);
  if (next.action === 'ok') return 0;
  if (next.action === 'stop') {
    process.stderr.write(`${next.line}\n`);
    return EXIT_NO_CHROMIUM;
  }
  const problem = install(next.sudo);
  if (problem || !executable(found.chromium)) {
    process.stderr.write(
      `${COMMAND}: Chromium could not be installed (${problem ?? `still no ${found.chromium}`}); run: ${INSTALL_COMMAND}\n`,
    );
    return EXIT_NO_CHROMIUM;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
