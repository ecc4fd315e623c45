import { describe, expect, test } from 'vitest';
import { commandName } from './commandName.ts';

describe('commandName', () => {
  test.each([
    [
      'a global install started through the PATH',
      '/usr/local/bin/conformance',
      '/usr/bin:/usr/local/bin',
      'conformance',
    ],
    ['the same link, its folder not on the PATH', '/usr/local/bin/conformance', '/usr/bin', 'npx conformance'],
    [
      'a prefix of its own (nvm, ~/.npm-global)',
      '/home/a/.npm-global/bin/conformance',
      '/home/a/.npm-global/bin/',
      'conformance',
    ],
    [
      "a project's dependency (npx, npm scripts)",
      '/p/node_modules/.bin/conformance',
      '/p/node_modules/.bin:/usr/bin',
      'npx conformance',
    ],
    ['a clone', '/src/suite/bin/conformance.mjs', '/src/suite/bin:/usr/bin', 'npx conformance'],
    [
      'a test runner (the command called in its process)',
      '/src/suite/node_modules/vitest/vitest.mjs',
      '/usr/bin',
      'npx conformance',
    ],
    ['no script (a REPL)', '', '/usr/bin', 'npx conformance'],
  ])('%s: %s', (_case, script, path, expected) => {
    expect(commandName({ script, path, platform: 'linux', exists: () => false })).toBe(expected);
  });

  test('Windows: the shim of a global install runs the package from <prefix>\\node_modules', () => {
    const shim = (f: string) => f.toLowerCase() === 'c:\\users\\a\\appdata\\roaming\\npm\\conformance.cmd';
    const context = {
      path: 'C:\\Windows;C:\\Users\\a\\AppData\\Roaming\\npm',
      platform: 'win32' as const,
      exists: shim,
    };
    const global = 'C:\\Users\\a\\AppData\\Roaming\\npm\\node_modules\\api-conformance-suite\\bin\\conformance.mjs';
    expect(commandName({ ...context, script: global })).toBe('conformance');
    const scoped = 'C:\\Users\\a\\AppData\\Roaming\\npm\\node_modules\\@acme\\suite\\bin\\conformance.mjs';
    expect(commandName({ ...context, script: scoped })).toBe('conformance');
    const project = 'C:\\work\\app\\node_modules\\api-conformance-suite\\bin\\conformance.mjs';
    expect(commandName({ ...context, script: project })).toBe('npx conformance');
    expect(commandName({ ...context, script: global, exists: () => false })).toBe('npx conformance');
  });
});
