// Runs every case in tests/conformance/cases through the Node CLI (format: tests/conformance/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'bin', 'skill-recommender.js');
const CASES = join(here, '..', '..', '..', 'tests', 'conformance', 'cases');

const textOf = (v) => (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1
  && typeof v.$text === 'string' ? v.$text : null);

function writeValue(path, value) {
  if (value === null || value === undefined) return;
  mkdirSync(dirname(path), { recursive: true });
  const t = textOf(value);
  writeFileSync(path, t !== null ? t : `${JSON.stringify(value, null, 2)}\n`);
}

function readAfter(path, before) {
  let bytes;
  try { bytes = readFileSync(path); } catch { return null; }
  const text = bytes.toString('utf8');
  if (textOf(before) === text) return { $text: text };
  try { return JSON.parse(text); } catch { return { $text: text }; }
}

function redact(v, subs) {
  if (typeof v === 'string') {
    let s = v;
    for (const [from, to] of subs) s = s.split(from).join(to);
    return s;
  }
  if (Array.isArray(v)) return v.map((x) => redact(x, subs));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redact(x, subs)]));
  return v;
}

function removePath(v, dotted) {
  const parts = dotted.split('.');
  const last = parts.pop();
  let cur = v;
  for (const p of parts) {
    if (!cur || typeof cur !== 'object' || !(p in cur)) return;
    cur = cur[p];
  }
  if (cur && typeof cur === 'object') delete cur[last];
}

const short = (v) => { const s = JSON.stringify(v); return s && s.length > 160 ? `${s.slice(0, 160)}…` : s; };

/** One line per differing JSON path. */
function diff(path, want, got, out) {
  const isObj = (x) => x && typeof x === 'object' && !Array.isArray(x);
  if (isObj(want) && isObj(got)) {
    for (const k of Object.keys(want)) {
      if (k in got) diff(`${path}.${k}`, want[k], got[k], out);
      else out.push(`${path}.${k}: missing (expected ${short(want[k])})`);
    }
    for (const k of Object.keys(got)) if (!(k in want)) out.push(`${path}.${k}: unexpected ${short(got[k])}`);
  } else if (Array.isArray(want) && Array.isArray(got)) {
    want.forEach((w, i) => { if (i < got.length) diff(`${path}[${i}]`, w, got[i], out); });
    if (want.length !== got.length) out.push(`${path}: expected ${want.length} items, got ${got.length}`);
  } else if (JSON.stringify(want) !== JSON.stringify(got)) {
    out.push(`${path}: expected ${short(want)}, got ${short(got)}`);
  }
}

const files = readdirSync(CASES).filter((f) => f.endsWith('.json')).sort();
const cacheDir = mkdtempSync(join(tmpdir(), 'sr-node-cache-'));

test('there are at least 30 conformance cases', () => {
  assert.ok(files.length >= 30, `found ${files.length}`);
});

for (const file of files) {
  const c = JSON.parse(readFileSync(join(CASES, file), 'utf8'));
  test(`${file}: ${c.name}`, () => {
    assert.ok(c.expect, `${file} has no expect (generate it with UPDATE_CONFORMANCE=1 through the Rust runner)`);
    const root = mkdtempSync(join(tmpdir(), 'sr-node-case-'));
    try {
      const stateDir = join(root, 'state');
      const filesDir = join(root, 'files');
      const home = join(root, 'home');
      for (const d of [stateDir, filesDir, home]) mkdirSync(d, { recursive: true });
      writeValue(join(stateDir, 'state.json'), c.state_before);
      writeValue(join(stateDir, 'history.json'), c.history_before);
      for (const [name, value] of Object.entries(c.files ?? {})) writeValue(join(filesDir, name), value);
      const args = ['--state-dir', stateDir];
      if (typeof c.now === 'string') args.push('--now', c.now);
      if (typeof c.timezone === 'string') args.push('--timezone', c.timezone);
      for (const a of c.args) args.push(a.split('$STATE_DIR').join(stateDir).split('$FILES').join(filesDir));
      const env = { ...process.env, HOME: home, SKILL_RECOMMENDER_CACHE_DIR: cacheDir };
      delete env.SKILL_RECOMMENDER_STATE_DIR;
      delete env.HERMES_HOME;
      // The locale decides the language without --lang: pinned (tests/conformance/README.md), then the case's env.
      delete env.LC_ALL;
      delete env.LC_MESSAGES;
      env.LANG = 'zh_CN.UTF-8';
      Object.assign(env, c.env ?? {});
      const r = spawnSync(process.execPath, [CLI, ...args], {
        cwd: filesDir, env, input: typeof c.stdin === 'string' ? c.stdin : '', encoding: 'utf8', timeout: 60_000,
      });
      let stdout = null;
      if (r.stdout.trim()) {
        try { stdout = JSON.parse(r.stdout); } catch (e) {
          assert.fail(`stdout is not JSON (${e.message}):\n${r.stdout}\nstderr: ${r.stderr}`);
        }
      }
      const subs = [[stateDir, '$STATE_DIR'], [filesDir, '$FILES']];
      for (const [d, n] of [[stateDir, '$STATE_DIR'], [filesDir, '$FILES']]) {
        const canon = realpathSync(d);
        if (canon !== d) subs.push([canon, n]);
      }
      stdout = redact(stdout, subs);
      for (const p of c.ignore ?? []) removePath(stdout, p);
      const got = {
        exit: r.status ?? -1,
        stdout,
        state_after: readAfter(join(stateDir, 'state.json'), c.state_before),
        history_after: readAfter(join(stateDir, 'history.json'), c.history_before),
      };
      const diffs = [];
      if (got.exit !== c.expect.exit) diffs.push(`exit: expected ${c.expect.exit}, got ${got.exit}`);
      for (const k of ['stdout', 'state_after', 'history_after']) diff(k, c.expect[k], got[k], diffs);
      if (diffs.length) {
        assert.fail(`${file} (${c.name}):\n    ${diffs.slice(0, 25).join('\n    ')}${diffs.length > 25 ? `\n    … and ${diffs.length - 25} more` : ''}\n  stderr: ${r.stderr.slice(0, 400)}`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}
