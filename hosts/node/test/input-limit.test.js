// The input limit is the host's own (`limits.maxInputBytes`), as in the Rust host (host-harness
// `run_cow` checks `self.limits.max_input_bytes`): an input over it is refused before the call, exit 3,
// naming the field and both sizes. A host opened with the defaults accepts the same input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHost, MemoryStateStore, LIMITS } from '../src/index.js';

const NOW = '2026-11-29T02:00:00Z';
const SMALL = 1_000;

/** Valid candidates JSON of exactly `bytes` UTF-8 bytes (one candidate, its description padded). */
function candidatesOf(bytes) {
  const doc = (pad) => JSON.stringify({
    candidates: [{
      skill_id: 'clawhub:padded-skill',
      name: 'padded-skill',
      url: 'https://clawhub.ai/someone/padded-skill',
      description: `A skill whose description is padded ${'x'.repeat(pad)}`,
      categories: ['documents'],
      source: 'clawhub',
    }],
  });
  const text = doc(bytes - Buffer.byteLength(doc(0), 'utf8'));
  assert.equal(Buffer.byteLength(text, 'utf8'), bytes);
  return text;
}

const open = (limits) => openHost({ store: new MemoryStateStore(), now: NOW, timezone: 'UTC', lang: 'en', limits });

const overLimit = (field, size) => (e) => {
  assert.equal(e.code, 'invalid_input');
  assert.equal(e.exitCode, 3);
  assert.equal(e.details.field, field);
  assert.equal(e.message, `invalid ${field}: ${size} bytes, over the ${SMALL}-byte input limit`);
  assert.deepEqual(e.toJSON().error, {
    code: 'invalid_input', message: e.message, exit_code: 3, field,
  });
  return true;
};

test('a host with a 1,000-byte maxInputBytes refuses a 2,000-byte candidates input; the default host accepts it', async () => {
  const candidates = candidatesOf(2_000);
  const small = await open({ maxInputBytes: SMALL });
  assert.equal(small.component.limits.maxInputBytes, SMALL);
  const o = { candidates, mode: 'manual', discover: false };
  await assert.rejects(async () => small.scan(o), overLimit('candidates', 2_000));
  await assert.rejects(async () => small.filter(o), overLimit('candidates', 2_000));
  await assert.rejects(async () => small.rank(o), overLimit('candidates', 2_000));
  await assert.rejects(async () => small.recommend({ ...o, dryRun: true }), overLimit('candidates', 2_000));

  const dflt = await open();
  assert.equal(dflt.component.limits.maxInputBytes, LIMITS.maxInputBytes);
  const out = await dflt.scan(o);
  assert.deepEqual(out.passed.map((c) => c.skill_id), ['clawhub:padded-skill']);
});

test('the host\'s maxInputBytes also caps normalize/render input and a bundle\'s file contents', async () => {
  const small = await open({ maxInputBytes: SMALL });
  const json = candidatesOf(2_000);
  await assert.rejects(async () => small.normalize({ json, from: 'candidates' }), overLimit('input', 2_000));
  await assert.rejects(async () => small.render({ mode: 'manual', input: json }), overLimit('input', 2_000));

  const dir = mkdtempSync(join(tmpdir(), 'sr-input-limit-'));
  const skill = join(dir, 'big-skill');
  mkdirSync(skill);
  const md = `---\nname: big-skill\ndescription: A skill with a long body.\n---\n${'y'.repeat(1_950)}\n`;
  writeFileSync(join(skill, 'SKILL.md'), md);
  const size = Buffer.byteLength(md, 'utf8');
  assert.ok(size > SMALL);
  await assert.rejects(async () => small.validate({ path: skill }), overLimit('bundle', size));
  await assert.rejects(async () => small.scanBundle({ path: skill }), overLimit('bundle', size));

  // At the limit exactly is allowed; the default host takes both inputs.
  const atLimit = await open({ maxInputBytes: 2_000 });
  const normalized = await atLimit.normalize({ json, from: 'candidates' });
  assert.equal(normalized.candidates.length, 1);
  const dflt = await open();
  const validated = await dflt.validate({ path: skill });
  assert.equal(typeof validated, 'object');
});

test('a file store opened by openHost reads state under the host\'s own document cap', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sr-doc-cap-'));
  writeFileSync(join(dir, 'state.json'), JSON.stringify({ daily_rec_status: 'disabled', pad: 'x'.repeat(2_000) }));
  const small = await openHost({ stateDir: dir, legacyDir: null, now: NOW, timezone: 'UTC', lang: 'en', limits: { maxDocumentBytes: SMALL } });
  await assert.rejects(small.status(), (e) => {
    assert.match(e.message, new RegExp(`over the ${SMALL}-byte limit`));
    return true;
  });
  const dflt = await openHost({ stateDir: dir, legacyDir: null, now: NOW, timezone: 'UTC', lang: 'en' });
  const out = await dflt.status();
  assert.equal(out.daily_rec_status, 'disabled');
  assert.ok(LIMITS.maxDocumentBytes > 2_000);
});
