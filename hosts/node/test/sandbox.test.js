// The sandbox: the WASI stubs give the component nothing, and the hostile fixture component
// (tests/fixtures/hostile-guest) is stopped at its deadline and memory cap and never half-writes state.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWasiStubs } from '../src/wasi-stubs.js';
import { openHost, MemoryStateStore, LIMITS, DEADLINE_MS, DEADLINE_PER_MIB_MS, deadlineFor } from '../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const HOSTILE = join(here, '../../../target/guest-wasm/wasm32-wasip2/wasm-release/hostile_guest.wasm');
const NOW = '2026-11-29T02:00:00Z';
let hostileDist;

before(() => {
  assert.ok(existsSync(HOSTILE), `${HOSTILE} is missing: run \`cargo build -p host-harness\` (its build.rs builds the fixture)`);
  hostileDist = mkdtempSync(join(tmpdir(), 'sr-hostile-'));
  const r = spawnSync(process.execPath, [join(here, '../scripts/build.js'), '--component', HOSTILE, '--out', hostileDist], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('the WASI stubs expose no environment, discard stdout, cap stderr and trap on exit', () => {
  const w = makeWasiStubs(8);
  assert.deepEqual(w.imports['wasi:cli/environment'].getEnvironment(), []);
  assert.equal(w.imports['wasi:cli/terminal-stdout'].getTerminalStdout(), undefined);
  w.imports['wasi:cli/stdout'].getStdout().write(new TextEncoder().encode('to nowhere'));
  w.imports['wasi:cli/stderr'].getStderr().write(new TextEncoder().encode('panicked at 0123456789'));
  assert.equal(w.stderrText(), 'panicked');
  assert.throws(() => w.imports['wasi:cli/exit'].exit({ tag: 'ok' }), /wasi:cli\/exit/);
  assert.deepEqual(Object.keys(w.imports).filter((k) => !/^wasi:(io|cli)\//.test(k)), []);
});

test('the transpiled bindings import no module (no preview2-shim, no node:*)', () => {
  const js = readFileSync(join(here, '../dist/guest.js'), 'utf8');
  assert.deepEqual(js.split('\n').filter((l) => /^\s*import\s|require\(|preview2-shim/.test(l)), []);
  const meta = JSON.parse(readFileSync(join(here, '../dist/component.json'), 'utf8'));
  assert.deepEqual(meta.imports.filter((i) => !/^(wasi:(io|cli)\/|skill-recommender:core\/)/.test(i)), []);
});

async function hostileHost(limits = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sr-hostile-state-'));
  writeFileSync(join(dir, 'state.json'), '{"daily_rec_status": "prompted"}\n');
  writeFileSync(join(dir, 'history.json'), '{"recommendations": []}\n');
  const host = await openHost({ stateDir: dir, now: NOW, timezone: 'UTC', legacyDir: null, dist: hostileDist, limits });
  return { host, dir };
}

const files = (dir) => ({
  state: readFileSync(join(dir, 'state.json'), 'utf8'),
  history: readFileSync(join(dir, 'history.json'), 'utf8'),
  names: readdirSync(dir).sort(),
});
const BEFORE = { state: '{"daily_rec_status": "prompted"}\n', history: '{"recommendations": []}\n', names: ['history.json', 'state.json', 'state.lock'] };

test('a component that loops forever is stopped at the deadline (exit 5), nothing written', async () => {
  const { host, dir } = await hostileHost({ deadlineMs: 300 });
  await assert.rejects(host.status(), (e) => e.code === 'sandbox_limit' && e.exitCode === 5 && e.details.limit === 'deadline');
  assert.deepEqual(files(dir), BEFORE);
});

test('the deadline is 10 s plus 1 s per started MiB of input (host-harness Limits::deadline_for)', () => {
  const MIB = 1 << 20;
  assert.equal(DEADLINE_MS, 10_000);
  assert.equal(DEADLINE_PER_MIB_MS, 1_000);
  assert.equal(LIMITS.deadlineMs, DEADLINE_MS);
  assert.equal(LIMITS.deadlinePerMibMs, DEADLINE_PER_MIB_MS);
  assert.equal(deadlineFor(LIMITS, 0), 10_000);
  assert.equal(deadlineFor(LIMITS, 1), 11_000);
  assert.equal(deadlineFor(LIMITS, MIB), 11_000);
  assert.equal(deadlineFor(LIMITS, MIB + 1), 12_000);
  assert.equal(deadlineFor(LIMITS, 44 * MIB), 54_000);
  assert.equal(deadlineFor(LIMITS, LIMITS.maxInputBytes), 74_000);
  assert.equal(deadlineFor({ ...LIMITS, deadlineMs: 300, deadlinePerMibMs: 0 }, 5 * MIB), 300);
  assert.equal(deadlineFor({ ...LIMITS, deadlineMs: 2_000, deadlinePerMibMs: 500 }, 2 * MIB + 1), 3_500);
  assert.equal(deadlineFor({ ...LIMITS, deadlineMs: null }, MIB), null);
  assert.equal(deadlineFor({ ...LIMITS, deadlineMs: 2 ** 40 }, 0), 2 ** 31 - 1, 'saturates at the largest setTimeout delay');
});

// The deadline each call's worker is given: the delays passed to setTimeout (the real timer still runs;
// every call here returns at once, so nothing waits for it).
function watchDeadlines(t) {
  const spy = t.mock.method(globalThis, 'setTimeout');
  return () => spy.mock.calls.map((c) => c.arguments[1]);
}

test('each call gets the deadline for its input size: none, a large normalize input, a large bundle', async (t) => {
  const MIB = 1 << 20;
  const { host, dir } = await hostileHost();
  const delays = watchDeadlines(t);
  await host.unsupportedDaily();
  assert.deepEqual(delays(), [10_000]);
  const json = `{"pad": "${'x'.repeat(2 * MIB)}"}`;   // 2 MiB + 11 bytes: three started MiB
  assert.deepEqual(Object.keys(await host.normalize({ json })), ['pad']);
  assert.deepEqual(delays(), [10_000, 13_000]);
  const skill = join(dir, 'big-skill');
  mkdirSync(skill);
  writeFileSync(join(skill, 'SKILL.md'), `---\nname: big-skill\ndescription: d\n---\n${'y'.repeat(MIB)}`);   // MiB + 39 bytes
  await assert.rejects(host.scanBundle({ path: skill }), (e) => e.code === 'invalid_input');   // the fixture refuses it
  assert.deepEqual(delays(), [10_000, 13_000, 12_000]);
});

test('both deadline numbers can be overridden per host', async (t) => {
  const { host } = await hostileHost({ deadlineMs: 2_000, deadlinePerMibMs: 500 });
  const delays = watchDeadlines(t);
  await host.normalize({ json: `{"pad": "${'x'.repeat(3 << 20)}"}` });   // four started MiB
  await host.unsupportedDaily();
  assert.deepEqual(delays(), [4_000, 2_000]);
});

test('a component that allocates without bound hits the memory cap (exit 5), nothing written', async () => {
  const { host, dir } = await hostileHost({ maxMemoryBytes: 64 * 1024 * 1024 });
  await assert.rejects(host.promptDaily({ source: 'manual' }), (e) => e.code === 'sandbox_limit' && e.details.limit === 'memory');
  assert.deepEqual(files(dir), BEFORE);
});

test('save then trap: exit 1 with the panic message, both files byte-identical', async () => {
  const { host, dir } = await hostileHost();
  await assert.rejects(host.enableDaily(), (e) => {
    assert.equal(e.code, 'component_trap');
    assert.equal(e.exitCode, 1);
    assert.match(e.details.guest_stderr, /deliberate trap after saving/);
    return true;
  });
  assert.deepEqual(files(dir), BEFORE);
});

test('save then err: nothing written', async () => {
  const { host, dir } = await hostileHost();
  await assert.rejects(host.disableDaily());
  assert.deepEqual(files(dir), BEFORE);
});

test('save then ok (the positive control): both documents committed', async () => {
  const { host, dir } = await hostileHost();
  await host.confirmDailyEnabled();
  const after = files(dir);
  assert.notEqual(after.state, BEFORE.state);
  assert.notEqual(after.history, BEFORE.history);
  assert.deepEqual(after.names, BEFORE.names);
});

test('an oversized staged document is a state_store error (exit 4), nothing written', async () => {
  const { host, dir } = await hostileHost({ maxDocumentBytes: 4 * 1024 * 1024 });
  await assert.rejects(host.shown({ skillId: 'a:b' }), (e) => e.code === 'state_store' && e.exitCode === 4 && /over the 4194304-byte limit/.test(e.message));
  assert.deepEqual(files(dir), BEFORE);
});

test('loads are served from the store the host gives (memory store)', async () => {
  const store = new MemoryStateStore({ state: '{"s": 1}', history: '{"h": 2}' });
  const host = await openHost({ store, now: NOW, timezone: 'UTC', dist: hostileDist });
  assert.deepEqual(await host.unsupportedDaily(), { state: '{"s": 1}', history: '{"h": 2}' });
});
