// Reading a skill bundle for scan-bundle / validate, as host-harness/src/bundle.rs does: a folder or a
// single SKILL.md (zip/.skill archives: see README). Symlinks are never followed out of the bundle; .git
// is skipped; caps on entries, entry size, total size and depth; binary detection by magic bytes, NUL
// bytes and UTF-8 validity; executable bits kept.
import { lstatSync, openSync, readSync, closeSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { ioMessage } from './errors.js';

export const BUNDLE_LIMITS = {
  maxFiles: 500,
  maxFileBytes: 10 * 1024 * 1024,
  maxTotalBytes: 50 * 1024 * 1024,
  maxRatio: 100,
  maxDepth: 16,
};

/** Thrown when a bundle cannot be read at all; `message` is "<path>: <reason>" like the Rust host. */
export class BundleError extends Error {}

export function magic(b) {
  const starts = (m) => b.length >= m.length && m.every((x, i) => b[i] === x);
  const s = (str) => [...Buffer.from(str, 'latin1')];
  if (starts(s('\x7fELF'))) return 'elf';
  if (starts(s('MZ'))) return 'pe';
  if ([[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xcf, 0xfa, 0xed, 0xfe], [0xce, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe]].some(starts)) return 'macho';
  if (starts(s('\x89PNG\r\n\x1a\n'))) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts(s('GIF87a')) || starts(s('GIF89a'))) return 'gif';
  if (starts(s('%PDF'))) return 'pdf';
  if (starts(s('PK\x03\x04'))) return 'zip';
  if (starts(s('\0asm'))) return 'wasm';
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Raw bytes -> a bundle entry: text when UTF-8 without NUL bytes and no binary magic. */
export function entry(path, bytes, executable) {
  const m = magic(bytes);
  const looksBinary = (m !== undefined && (m !== 'pdf' || bytes.length > 4))
    || bytes.subarray(0, 8192).includes(0);
  let content;
  if (!looksBinary) {
    try { content = utf8.decode(bytes); } catch { content = undefined; }
  }
  return {
    path,
    size: BigInt(bytes.length),
    kind: content === undefined ? 'binary' : 'text',
    content,
    executable,
    magic: m,
    linkTarget: undefined,
    linkEscapes: false,
  };
}

const note = (path, code, message) => ({ path, code, message });
const symlinkEntry = (path, target, escapes) => ({
  path, size: 0n, kind: 'symlink', content: undefined, executable: false, magic: undefined, linkTarget: target, linkEscapes: escapes,
});
const byteCompare = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Read a bundle from a folder or a single SKILL.md. */
export function readBundle(path, limits = BUNDLE_LIMITS) {
  const fail = (e) => new BundleError(`${path}: ${ioMessage(e)}`);
  let st;
  try { st = statSync(path); } catch (e) { throw fail(e); }
  if (st.isDirectory()) return readDirBundle(path, limits);
  const head = Buffer.alloc(4);
  let n;
  try {
    const fd = openSync(path, 'r');
    try { n = readSync(fd, head, 0, 4, 0); } finally { closeSync(fd); }
  } catch (e) { throw fail(e); }
  const lower = path.toLowerCase();
  if ((n === 4 && head.equals(Buffer.from('PK\x03\x04', 'latin1'))) || lower.endsWith('.zip') || lower.endsWith('.skill')) {
    throw new BundleError(`${path}: zip/.skill archives are not read by the Node host yet; unpack it and pass the folder, or use the Rust CLI`);
  }
  let name = '';
  try { name = basename(dirname(realpathSync(path))); } catch { /* unresolvable */ }
  const bundle = { name, files: [], notes: [] };
  if (st.size > limits.maxFileBytes) {
    bundle.notes.push(note('SKILL.md', 'file_too_large', `${st.size} bytes, over the ${limits.maxFileBytes}-byte cap`));
  } else {
    let bytes;
    try { bytes = readFileSync(path); } catch (e) { throw fail(e); }
    bundle.files.push(entry('SKILL.md', bytes, false));
  }
  return bundle;
}

function rel(root, p) {
  const r = p.startsWith(root + sep) ? p.slice(root.length + 1) : p === root ? '' : p;
  return r.split(sep).filter((c) => c !== '').join('/');
}

function readDirBundle(dir, limits) {
  let root;
  try { root = realpathSync(dir); } catch (e) { throw new BundleError(`${dir}: ${ioMessage(e)}`); }
  const bundle = { name: basename(root), files: [], notes: [] };
  let total = 0;
  const stack = [[root, 0]];
  while (stack.length) {
    const [d, depth] = stack.pop();
    let names;
    try {
      names = readdirSync(d);
    } catch (e) {
      bundle.notes.push(note(rel(root, d), 'unreadable', ioMessage(e)));
      continue;
    }
    names.sort(byteCompare);
    for (const nm of names.reverse()) {
      const p = join(d, nm);
      const r = rel(root, p);
      let st;
      try { st = lstatSync(p); } catch {
        bundle.notes.push(note(r, 'unreadable', 'cannot stat'));
        continue;
      }
      if (st.isSymbolicLink()) {
        let target = '';
        try { target = readlinkSync(p); } catch { /* unreadable link */ }
        let escapes; let looped = false;
        try {
          const real = realpathSync(p);
          escapes = !(real === root || real.startsWith(root + sep));
        } catch (e) {
          escapes = true;
          looped = e.code === 'ELOOP';
        }
        if (looped) bundle.notes.push(note(r, 'symlink_loop', `${r} -> ${target} loops`));
        bundle.files.push(symlinkEntry(r, target, escapes && !looped));
        continue;
      }
      if (st.isDirectory()) {
        if (nm === '.git') continue;
        if (depth + 1 > limits.maxDepth) {
          bundle.notes.push(note(r, 'too_many_files', `deeper than ${limits.maxDepth} folders; not read`));
        } else {
          stack.push([p, depth + 1]);
        }
        continue;
      }
      if (bundle.files.length >= limits.maxFiles) {
        bundle.notes.push(note(r, 'too_many_files', `more than ${limits.maxFiles} entries; the rest were not read`));
        return bundle;
      }
      if (st.size > limits.maxFileBytes) {
        bundle.notes.push(note(r, 'file_too_large', `${st.size} bytes, over the ${limits.maxFileBytes}-byte cap`));
        continue;
      }
      if (total + st.size > limits.maxTotalBytes) {
        bundle.notes.push(note(r, 'bundle_too_large', `the bundle passes ${limits.maxTotalBytes} bytes; the rest were not read`));
        return bundle;
      }
      try {
        let bytes = readFileSync(p);
        if (bytes.length > limits.maxFileBytes + 1) bytes = bytes.subarray(0, limits.maxFileBytes + 1);
        total += bytes.length;
        bundle.files.push(entry(r, bytes, (st.mode & 0o111) !== 0));
      } catch (e) {
        bundle.notes.push(note(r, 'unreadable', ioMessage(e)));
      }
    }
  }
  bundle.files.sort((a, b) => byteCompare(a.path, b.path));
  return bundle;
}
