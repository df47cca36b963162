// The file store: atomic replace leaves no temp file, a corrupt file is never touched, the lock excludes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateStore, atomicWrite, resolveStateDir, openHost, HostError } from '../src/index.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'sr-store-'));
const NOW = '2026-11-29T02:00:00Z';

test('atomic write replaces the file, keeps its mode and leaves no temp file', () => {
  const dir = fresh();
  const p = join(dir, 'state.json');
  writeFileSync(p, '{"old": true}\n');
  chmodSync(p, 0o640);
  atomicWrite(p, '{"new": true}\n');
  assert.equal(readFileSync(p, 'utf8'), '{"new": true}\n');
  assert.equal(statSync(p).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(dir), ['state.json']);
});

test('a failed atomic write leaves the target and no temp file behind', () => {
  const dir = fresh();
  // The target is a non-empty directory: the temp file is written, then the rename over it fails.
  const p = join(dir, 'state.json');
  mkdirSync(p);
  writeFileSync(join(p, 'keep'), 'x');
  assert.throws(() => atomicWrite(p, '{}'), /cannot replace .*state\.json/);
  assert.deepEqual(readdirSync(dir), ['state.json']);
  assert.equal(readFileSync(join(p, 'keep'), 'utf8'), 'x');
});

test('a corrupt state.json is refused (exit 4) and left byte for byte', async () => {
  const dir = fresh();
  const p = join(dir, 'state.json');
  const bytes = '{"daily_rec_status": "prompted",,}';
  writeFileSync(p, bytes);
  const host = await openHost({ stateDir: dir, now: NOW, timezone: 'UTC', legacyDir: null });
  await assert.rejects(host.promptDaily({ source: 'manual' }), (e) => {
    assert.ok(e instanceof HostError);
    assert.equal(e.code, 'corrupt_state');
    assert.equal(e.exitCode, 4);
    assert.equal(e.details.path, p);
    return true;
  });
  assert.equal(readFileSync(p, 'utf8'), bytes);
  assert.deepEqual(readdirSync(dir).sort(), ['state.json', 'state.lock']);
});

test('a refused transition writes nothing; a successful one commits', async () => {
  const dir = fresh();
  const host = await openHost({ stateDir: dir, now: NOW, timezone: 'UTC', legacyDir: null });
  await assert.rejects(host.confirmDailyEnabled(), (e) => e.code === 'refused_transition' && e.exitCode === 6);
  assert.deepEqual(readdirSync(dir), ['state.lock']);
  const out = await host.promptDaily({ source: 'post_install' });
  assert.equal(out.status, 'prompted');
  assert.equal(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')).daily_rec_status, 'prompted');
});

test('state.lock excludes: a call waits while another process holds the lock, and gives up with exit 4', async () => {
  const dir = fresh();
  const lock = join(dir, 'state.lock');
  writeFileSync(lock, '');
  // Hold the lock the way the Rust host does (flock on state.lock) from another process.
  const holder = spawn('flock', ['--exclusive', lock, 'sh', '-c', 'echo held && exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'ignore'] });
  await new Promise((resolve, reject) => {
    holder.on('error', reject);
    holder.stdout.on('data', (d) => { if (String(d).includes('held')) resolve(); });
  });
  try {
    const store = new FileStateStore(dir, { lockTimeoutMs: 300 });
    await assert.rejects(store.begin(), /is held by another skill-recommender process/);
    // Released: the next call gets it.
    const released = new Promise((r) => holder.once('exit', r));
    holder.stdin.end();
    await released;
    const session = await store.begin();
    session.commit([['state', '{"daily_rec_status": "enabled"}\n']]);
    await session.release();
    assert.equal(readFileSync(join(dir, 'state.json'), 'utf8'), '{"daily_rec_status": "enabled"}\n');
  } finally {
    holder.kill();
  }
});

test('concurrent calls in one process serialize and lose no update', async () => {
  const dir = fresh();
  const host = await openHost({ stateDir: dir, now: NOW, timezone: 'UTC', legacyDir: null });
  await Promise.all(Array.from({ length: 8 }, (_, i) => host.shown({ skillId: `clawhub:s${i}` })));
  const history = JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8'));
  assert.equal(history.recommendations.length, 8);
});

test('the state directory resolves in the original order', () => {
  const home = fresh();
  assert.deepEqual(resolveStateDir('/x', { SKILL_RECOMMENDER_STATE_DIR: '/y' }, home), { dir: '/x', source: '--state-dir' });
  assert.deepEqual(resolveStateDir(undefined, { SKILL_RECOMMENDER_STATE_DIR: '/y', HERMES_HOME: '/h' }, home), { dir: '/y', source: '$SKILL_RECOMMENDER_STATE_DIR' });
  assert.deepEqual(resolveStateDir(undefined, { SKILL_RECOMMENDER_STATE_DIR: '', HERMES_HOME: '/h' }, home), { dir: '/h/state/skill-recommender', source: '$HERMES_HOME' });
  assert.deepEqual(resolveStateDir(undefined, {}, home), { dir: join(home, '.skill-recommender'), source: '~/.skill-recommender' });
  mkdirSync(join(home, '.hermes'));
  assert.deepEqual(resolveStateDir(undefined, {}, home), { dir: join(home, '.hermes', 'state', 'skill-recommender'), source: '~/.hermes' });
});

test('legacy migration copies a non-template file once and refuses a corrupt one', async () => {
  const legacy = fresh();
  writeFileSync(join(legacy, 'state.json'), '{"daily_rec_status": "enabled"}');
  const dir = join(fresh(), 'state');
  const store = new FileStateStore(dir, { legacyDir: legacy });
  const s = await store.begin();
  await s.release();
  assert.equal(readFileSync(join(dir, 'state.json'), 'utf8'), '{"daily_rec_status": "enabled"}');
  assert.equal(store.migrations.length, 1);
  const bad = fresh();
  writeFileSync(join(bad, 'history.json'), '{oops');
  const dir2 = join(fresh(), 'state');
  await assert.rejects(new FileStateStore(dir2, { legacyDir: bad }).begin(), /cannot be migrated: not valid JSON/);
  assert.equal(readFileSync(join(bad, 'history.json'), 'utf8'), '{oops');
});

test('concurrent CLI processes lose no update (state.lock across processes)', async () => {
  const dir = fresh();
  const cli = new URL('../bin/skill-recommender.js', import.meta.url).pathname;
  const one = (w, i) => new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, '--state-dir', dir, '--now', NOW, 'shown', '--skill-id', `clawhub:w${w}-${i}`], { stdio: 'ignore' });
    p.on('exit', resolve);
  });
  const worker = async (w) => { const codes = []; for (let i = 0; i < 5; i++) codes.push(await one(w, i)); return codes; };
  const codes = (await Promise.all([0, 1, 2, 3].map(worker))).flat();
  assert.deepEqual(codes, Array(20).fill(0));
  const history = JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8'));
  assert.equal(history.recommendations.length, 20);
});
