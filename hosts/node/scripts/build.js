#!/usr/bin/env node
// Transpile the skill-recommender component with jco into dist/ (ESM, instantiation mode: the host
// passes every import itself — see src/wasi-stubs.js; @bytecodealliance/preview2-shim is never used).
// Also records the component's import and export names (in the component's own order) in
// dist/component.json, and refuses a component for another contract version.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { componentNames } from '../src/component-names.js';
import { CONTRACT_VERSION } from '../src/contract.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '..');
// `--component FILE` / `--out DIR` (tests transpile the hostile fixture this way); the defaults build
// the project's component into dist/.
const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const wasm = resolve(arg('--component') || process.env.SKILL_RECOMMENDER_COMPONENT
  || join(pkg, '../../target/guest-wasm/wasm32-wasip2/wasm-release/guest.wasm'));
const dist = resolve(arg('--out') || join(pkg, 'dist'));

function fail(message) {
  console.error(`skill-recommender (node): build failed: ${message}`);
  process.exit(1);
}

if (!existsSync(wasm)) {
  fail(`the component ${wasm} does not exist.\n` +
    'Build it first from the repository root:  cargo build -p host-harness\n' +
    '(host-harness/build.rs builds the guest into target/guest-wasm/), then run `npm run build` (or `npm ci`) again.');
}
const bytes = readFileSync(wasm);
let names;
try {
  names = componentNames(bytes);
} catch (e) {
  fail(`${wasm} is not a readable WebAssembly component: ${e.message}`);
}
const lifecycle = names.exports.find((e) => e.startsWith('skill-recommender:core/lifecycle@'));
if (!lifecycle) {
  fail(`${wasm} is not a skill-recommender component: it exports no skill-recommender:core/lifecycle@* (exports: ${names.exports.join(', ')})`);
}
const found = lifecycle.split('@')[1];
if (found !== CONTRACT_VERSION) {
  fail(`the component implements contract skill-recommender:core@${found}, but this host expects @${CONTRACT_VERSION}; use a matching host and component`);
}
const allowed = (i) => i.startsWith('wasi:io/') || i.startsWith('wasi:cli/') || i.startsWith('skill-recommender:core/');
const extra = names.imports.filter((i) => !allowed(i));
if (extra.length) {
  fail(`the component imports ${extra.join(', ')}; this host provides only wasi:io, wasi:cli (stubbed) and the state store`);
}

let jcoBin;
{
  // The package's "exports" hide package.json, so find it by walking up node_modules folders.
  let dir = pkg;
  for (;;) {
    const candidate = join(dir, 'node_modules', '@bytecodealliance', 'jco', 'package.json');
    if (existsSync(candidate)) {
      const jcoPkg = JSON.parse(readFileSync(candidate, 'utf8'));
      const bin = typeof jcoPkg.bin === 'string' ? jcoPkg.bin : jcoPkg.bin.jco;
      jcoBin = join(dirname(candidate), bin);
      break;
    }
    const up = dirname(dir);
    if (up === dir) fail('@bytecodealliance/jco is not installed: run `npm ci` in hosts/node');
    dir = up;
  }
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const r = spawnSync(process.execPath, [jcoBin, 'transpile', wasm, '-o', dist, '--name', 'guest',
  '--instantiation', 'sync', '--no-wasi-shim', '--no-typescript', '--quiet'], { encoding: 'utf8' });
if (r.status !== 0) {
  fail(`jco transpile exited with ${r.status}:\n${r.stderr}${r.stdout}`);
}
// The sandbox stance, checked: nothing in dist/ may pull in a WASI implementation or a node module.
const js = readFileSync(join(dist, 'guest.js'), 'utf8');
if (/preview2-shim|from\s+['"]node:|require\(/.test(js)) {
  fail('the transpiled bindings import a module; expected a self-contained instantiate() (jco --instantiation sync --no-wasi-shim)');
}
const data = join(pkg, '../../data');
writeFileSync(join(dist, 'templates.json'), JSON.stringify({
  state: readFileSync(join(data, 'state.json'), 'utf8'),
  history: readFileSync(join(data, 'history.json'), 'utf8'),
}) + '\n');
writeFileSync(join(dist, 'sample_candidates.json'), readFileSync(join(data, 'sample_candidates.json')));
// The guest's platform vocabulary: the host decides with it whether to look commands up (src/commands.js).
writeFileSync(join(dist, 'fit.json'), readFileSync(join(pkg, '../../guest/rules/fit.json')));
const cores = readdirSync(dist).filter((f) => f.endsWith('.wasm')).sort();
writeFileSync(join(dist, 'component.json'), JSON.stringify({
  source: wasm,
  sha256: createHash('sha256').update(bytes).digest('hex'),
  bytes: bytes.length,
  contract_version: CONTRACT_VERSION,
  imports: names.imports,
  exports: names.exports,
  core_modules: cores,
}, null, 2) + '\n');
console.error(`skill-recommender (node): transpiled ${wasm} (${bytes.length} bytes) into ${dist}`);
