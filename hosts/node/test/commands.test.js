// host-env: the PATH lookup answers plain names only, and only for an agent on this host's platform.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NAMES, canonicalPlatform, findCommands, looksUpFor } from '../src/commands.js';

test('the platform vocabulary is the guest\'s', () => {
  assert.equal(canonicalPlatform('darwin'), 'macos');
  assert.equal(canonicalPlatform('Win32'), 'windows');
  assert.equal(canonicalPlatform('freebsd13'), 'freebsd');
  assert.equal(canonicalPlatform('linx'), null);
});

test('commands are looked up only for this platform, plain names only, at most 256', () => {
  const here = canonicalPlatform(process.platform);
  assert.ok(looksUpFor(undefined) && looksUpFor(here));
  assert.ok(!looksUpFor(here === 'windows' ? 'linux' : 'windows'));
  assert.equal(findCommands(['jq'], false), undefined);
  assert.equal(findCommands(Array(MAX_NAMES + 1).fill('x'), true), undefined);
  if (process.platform !== 'win32') {
    assert.deepEqual(findCommands(['sh', 'no-such-command-skill-recommender', '/bin/sh'], true), [true, false, false]);
  }
});
