// Reading a skill bundle for scan-bundle / validate, as host-harness/src/bundle.rs does: a folder or a
// single SKILL.md or a .zip/.skill archive (read in memory, never extracted). Symlinks are never followed out of the bundle; .git
// is skipped; caps on entries, entry size, total size and depth; binary detection by magic bytes, NUL
// bytes and UTF-8 validity; executable bits kept.
import { lstatSync, openSync, readSync, closeSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';
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
    return readZipBundle(path, limits);
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

/** Where a symlink inside an archive points, resolved lexically against its own folder. */
function archiveLinkEscapes(entryPath, target) {
  const t = target.replace(/\\/g, '/');
  if (t.startsWith('/') || t[1] === ':') return true;
  let depth = (entryPath.match(/\//g) ?? []).length;
  for (const part of t.split('/')) {
    if (part === '' || part === '.') continue;
    depth += part === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return false;
}

/** The zip's central directory: [{name (raw bytes), method, flags, compressed, size, localOffset, unixMode}]. */
function centralDirectory(buf) {
  const min = Math.max(0, buf.length - 0xffff - 22);
  let eocd = -1;
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('invalid Zip archive: Could not find EOCD');
  const count = buf.readUInt16LE(eocd + 10);
  let off = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || off === 0xffffffff) throw new Error('ZIP64 archives are not supported by the Node host');
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (off + 46 > buf.length || buf.readUInt32LE(off) !== 0x02014b50) throw new Error('invalid Zip archive: Invalid central directory header');
    const madeBy = buf.readUInt16LE(off + 4) >> 8;
    const nameLen = buf.readUInt16LE(off + 28);
    const extraLen = buf.readUInt16LE(off + 30);
    const commentLen = buf.readUInt16LE(off + 32);
    const external = buf.readUInt32LE(off + 38);
    const name = buf.subarray(off + 46, off + 46 + nameLen);
    const isDirName = name.length > 0 && (name[name.length - 1] === 0x2f || name[name.length - 1] === 0x5c);
    let unixMode;
    if (madeBy === 3) unixMode = external >>> 16;
    else if (madeBy === 0) unixMode = isDirName ? 0o40775 : ((external & 1) ? 0o100444 : 0o100664);
    entries.push({
      name,
      flags: buf.readUInt16LE(off + 8),
      method: buf.readUInt16LE(off + 10),
      compressed: buf.readUInt32LE(off + 20),
      size: buf.readUInt32LE(off + 24),
      localOffset: buf.readUInt32LE(off + 42),
      unixMode,
      isDirName,
    });
    off += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function entryData(buf, e, cap) {
  if (e.flags & 1) throw new Error('Password required to decrypt file');
  const lo = e.localOffset;
  if (lo + 30 > buf.length || buf.readUInt32LE(lo) !== 0x04034b50) throw new Error('invalid Zip archive: Invalid local file header');
  const start = lo + 30 + buf.readUInt16LE(lo + 26) + buf.readUInt16LE(lo + 28);
  const raw = buf.subarray(start, start + e.compressed);
  if (e.method === 0) return raw.subarray(0, cap);
  if (e.method === 8) {
    try {
      return inflateRawSync(raw, { maxOutputLength: cap });
    } catch (err) {
      if (err.code === 'ERR_BUFFER_TOO_LARGE') return Buffer.alloc(cap); // only the length matters: past the cap
      throw new Error(`invalid Zip archive: ${err.message}`);
    }
  }
  throw new Error(`unsupported Zip archive: Compression method not supported`);
}

function readZipBundle(path, limits) {
  let buf;
  try { buf = readFileSync(path); } catch (e) { throw new BundleError(`${path}: ${ioMessage(e)}`); }
  let entries;
  try { entries = centralDirectory(buf); } catch (e) { throw new BundleError(`${path}: not a readable zip archive (${e.message})`); }
  const bundle = { name: basename(path, extname(path)), files: [], notes: [] };
  const seen = new Set();
  let total = 0;
  for (const e of entries) {
    const raw = e.name.toString('utf8').replace(/\\/g, '/');
    if (e.isDirName) continue;
    if (raw.startsWith('/') || raw[1] === ':') {
      bundle.notes.push(note(raw, 'absolute_path', `entry ${JSON.stringify(raw)} has an absolute path; not extracted`));
      continue;
    }
    // zip's enclosed_name(): no NUL, `.` dropped, `..` resolved lexically and never above the root.
    const parts = [];
    let escapes = raw.includes('\0');
    for (const part of raw.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') { if (parts.length === 0) escapes = true; else parts.pop(); } else parts.push(part);
    }
    if (escapes) {
      bundle.notes.push(note(raw, 'path_escape', `entry ${JSON.stringify(raw)} leaves the archive root (zip-slip); not extracted`));
      continue;
    }
    const rel = parts.join('/');
    if (seen.has(rel.toLowerCase())) {
      bundle.notes.push(note(rel, 'duplicate_path', `${rel} appears more than once; only the first was read`));
      continue;
    }
    seen.add(rel.toLowerCase());
    if (bundle.files.length >= limits.maxFiles) {
      bundle.notes.push(note(rel, 'too_many_files', `more than ${limits.maxFiles} entries; the rest were not read`));
      break;
    }
    const declared = e.size;
    const compressed = Math.max(e.compressed, 1);
    const ratio = Math.floor(declared / compressed);
    if (ratio > limits.maxRatio && declared > 1 << 20) {
      bundle.notes.push(note(rel, 'zip_bomb', `${declared} bytes from ${compressed} compressed (ratio ${ratio}); not extracted`));
      continue;
    }
    if (declared > limits.maxFileBytes) {
      bundle.notes.push(note(rel, 'file_too_large', `${declared} bytes, over the ${limits.maxFileBytes}-byte cap`));
      continue;
    }
    const executable = e.unixMode !== undefined && (e.unixMode & 0o111) !== 0;
    const isLink = e.unixMode !== undefined && (e.unixMode & 0o170000) === 0o120000;
    let bytes;
    try {
      bytes = entryData(buf, e, limits.maxFileBytes + 1);
    } catch (err) {
      bundle.notes.push(note(rel, 'unreadable', err.message));
      continue;
    }
    if (bytes.length > limits.maxFileBytes) {
      bundle.notes.push(note(rel, 'zip_bomb', `expands past the ${limits.maxFileBytes}-byte cap although it declared ${declared} bytes`));
      continue;
    }
    total += bytes.length;
    if (total > limits.maxTotalBytes) {
      bundle.notes.push(note(rel, 'bundle_too_large', `the bundle passes ${limits.maxTotalBytes} bytes; the rest were not read`));
      break;
    }
    if (isLink) {
      const target = bytes.toString('utf8');
      bundle.files.push(symlinkEntry(rel, target, archiveLinkEscapes(rel, target)));
    } else {
      bundle.files.push(entry(rel, bytes, executable));
    }
  }
  stripWrapper(bundle);
  return bundle;
}

/** A zip whose entries all sit under one folder has that wrapper stripped (and named after it). */
function stripWrapper(bundle) {
  const first = bundle.files[0]?.path;
  if (!first || !first.includes('/')) return;
  const dir = first.slice(0, first.indexOf('/'));
  const prefix = `${dir}/`;
  if (bundle.files.every((f) => f.path.startsWith(prefix))
    && bundle.notes.every((n) => n.path.startsWith(prefix) || n.path.startsWith('#'))) {
    for (const f of bundle.files) f.path = f.path.slice(prefix.length);
    for (const n of bundle.notes) if (n.path.startsWith(prefix)) n.path = n.path.slice(prefix.length);
    bundle.name = dir;
  }
}
