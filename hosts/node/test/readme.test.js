// Runs this host's README code blocks as written (issue 15: none may go stale): `sh` blocks with bash,
// `js` blocks with node (the package's own name mapped to this checkout's src/index.js). Each runs in a
// scratch folder with `bin/` and the repository's `tests/` and `data/` linked, and a state directory and
// HOME of its own; `text` blocks are not run (install steps that fetch or build) and are listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..');
const repo = join(pkg, '..', '..');

function blocks(text) {
  const out = [];
  let open = null;
  text.split('\n').forEach((line, i) => {
    const fence = line.trimStart().startsWith('```') ? line.trimStart().slice(3).trim() : null;
    if (open === null && fence !== null) open = { line: i + 1, lang: fence.split(/\s+/)[0], body: '' };
    else if (open !== null && fence === '') { out.push(open); open = null; }
    else if (open !== null) open.body += `${line}\n`;
  });
  return out;
}

function scratch() {
  const root = mkdtempSync(join(tmpdir(), 'sr-readme-'));
  const work = join(root, 'work');
  mkdirSync(work);
  symlinkSync(join(pkg, 'bin'), join(work, 'bin'));
  for (const d of ['tests', 'data', 'schema']) symlinkSync(join(repo, d), join(work, d));
  mkdirSync(join(root, 'home'));
  const env = {
    ...process.env, HOME: join(root, 'home'), SKILL_RECOMMENDER_STATE_DIR: join(root, 'state'), LANG: 'C.UTF-8',
  };
  delete env.HERMES_HOME;
  delete env.LC_ALL;
  return { root, work, env };
}

test('every code block of hosts/node/README.md runs as written', () => {
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
  const all = blocks(readme);
  const { root, work, env } = scratch();
  const notRun = [];
  let ran = 0;
  try {
    for (const b of all) {
      const at = `README.md:${b.line}`;
      if (b.lang === 'sh') {
        const r = spawnSync('bash', ['-c', `set -euo pipefail\n${b.body}`], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
        assert.equal(r.status, 0, `${at}: the sh block failed\n${b.body}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
        ran += 1;
      } else if (b.lang === 'js') {
        const index = pathToFileURL(join(pkg, 'src', 'index.js')).href;
        const file = join(work, `block-${b.line}.mjs`);
        writeFileSync(file, b.body.split("'skill-recommender-node'").join(`'${index}'`));
        const r = spawnSync(process.execPath, [file], { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
        assert.equal(r.status, 0, `${at}: the js block failed\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
        ran += 1;
      } else if (b.lang === 'text' || b.lang === 'json') {
        if (b.lang === 'json') JSON.parse(b.body);
        else notRun.push(at);
      } else {
        assert.fail(`${at}: code block language ${JSON.stringify(b.lang)} (sh, js, json or text)`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(`README blocks run: ${ran}; not run (text): ${notRun.join(', ')}`);
  assert.ok(ran >= 2, `only ${ran} blocks ran`);
});
