// The host's side of `host-env.find-commands` (host-harness/src/commands.rs): which of the programs
// candidates declare as prerequisites are on this machine's PATH. Looked up only when the agent runs on
// this host's platform (or does not say); plain program names only, at most 256 per call.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const MAX_NAMES = 256;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

let vocab;
/** alias -> canonical platform, from the guest's own vocabulary (guest/rules/fit.json, copied to dist/). */
function platforms() {
  if (!vocab) {
    const file = JSON.parse(readFileSync(new URL('../dist/fit.json', import.meta.url), 'utf8'));
    vocab = new Map();
    for (const [canonical, aliases] of Object.entries(file.platforms)) {
      for (const a of [canonical, ...aliases]) vocab.set(key(a), canonical);
    }
  }
  return vocab;
}

const key = (s) => String(s).trim().toLowerCase().replace(/[ -]/g, '_');

/** The canonical platform a name means (as guest::fit::platform), or null. */
export function canonicalPlatform(name) {
  const v = platforms();
  const k = key(name);
  if (v.has(k)) return v.get(k);
  const stem = k.replace(/\d+$/, '');
  return stem && stem !== k && v.has(stem) ? v.get(stem) : null;
}

/** Whether the host should look commands up for an agent that states `platform`. */
export function looksUpFor(platform) {
  const p = platform == null ? '' : String(platform).trim();
  return p === '' || canonicalPlatform(p) === canonicalPlatform(process.platform);
}

/** Whether an executable called `name` is on PATH (PATHEXT on Windows). */
export function onPath(name) {
  if (!NAME.test(name)) return false;
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';') : [''];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const ext of exts) {
      const p = join(dir || '.', name + ext);
      try {
        if (!statSync(p).isFile()) continue;
        if (process.platform !== 'win32') accessSync(p, constants.X_OK);
        return true;
      } catch { /* not here */ }
    }
  }
  return false;
}

/** The answer to one `find-commands` call (undefined: not looked up). */
export function findCommands(names, lookup) {
  if (!lookup || names.length > MAX_NAMES) return undefined;
  return names.map(onPath);
}
