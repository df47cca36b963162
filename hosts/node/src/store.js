// State stores with the same semantics as the Rust file store (host-harness/src/store.rs):
// resolution order, state.json/history.json as the guest writes them, atomic replace (temp file in the
// same directory, fsync, rename, fsync of the directory), an exclusive `state.lock` for the whole call,
// one-time legacy migration, corrupt or oversized files never touched. A call is a transaction: the host
// stages the guest's saves and commits them only when the call returns ok (see component.js).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync,
  statSync, unlinkSync, writeSync, fchmodSync, constants as fsConstants,
} from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { ioMessage } from './errors.js';
import { TEMPLATES } from './templates.js';

export const DOCUMENTS = ['state', 'history'];
export const fileName = (doc) => (doc === 'state' ? 'state.json' : 'history.json');

/** A store failure naming its file; `message` is the text the Rust host prints. */
export class StoreError extends Error {
  constructor(message, path = null) {
    super(message);
    this.path = path;
  }
}

const ioError = (op, path, e) => new StoreError(`cannot ${op} ${path}: ${ioMessage(e)}`, path);

/**
 * Resolve the state directory, the original's order: the flag, $SKILL_RECOMMENDER_STATE_DIR,
 * $HERMES_HOME/state/skill-recommender, ~/.hermes/state/skill-recommender if ~/.hermes exists,
 * ~/.skill-recommender. Empty variables count as unset. Returns {dir, source}.
 */
export function resolveStateDir(flag, env = process.env, home = process.env.HOME) {
  if (flag) return { dir: flag, source: '--state-dir' };
  const v = (k) => (env[k] ? env[k] : null);
  if (v('SKILL_RECOMMENDER_STATE_DIR')) return { dir: v('SKILL_RECOMMENDER_STATE_DIR'), source: '$SKILL_RECOMMENDER_STATE_DIR' };
  if (v('HERMES_HOME')) return { dir: join(v('HERMES_HOME'), 'state', 'skill-recommender'), source: '$HERMES_HOME' };
  if (!home) throw new Error('no home directory: pass --state-dir or set SKILL_RECOMMENDER_STATE_DIR');
  const hermes = join(home, '.hermes');
  let isDir = false;
  try { isDir = statSync(hermes).isDirectory(); } catch { /* absent */ }
  if (isDir) return { dir: join(hermes, 'state', 'skill-recommender'), source: '~/.hermes' };
  return { dir: join(home, '.skill-recommender'), source: '~/.skill-recommender' };
}

/** Read a file as UTF-8 within a size cap; null if it does not exist. Never modifies it. */
export function readCapped(path, limit) {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw ioError('stat', path, e);
  }
  if (st.size > limit) {
    throw new StoreError(`${path} is ${st.size} bytes, over the ${limit}-byte limit; it was left as it is`, path);
  }
  let bytes;
  try { bytes = readFileSync(path); } catch (e) { throw ioError('read', path, e); }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new StoreError(`${path} is not UTF-8 text; it was left as it is — repair it or move it aside`, path);
  }
}

/**
 * Replace `path` atomically: a temp file beside it (mode 0600, or the existing file's mode), fsync,
 * rename over the target, fsync of the directory. A failure removes the temp file.
 */
export function atomicWrite(path, text) {
  const dir = dirname(path) || '.';
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('base64url')}.tmp`);
  let fd;
  try {
    fd = openSync(tmp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
  } catch (e) {
    throw ioError('create a temp file beside', path, e);
  }
  let done = false;
  try {
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    let mode = null;
    try { mode = statSync(path).mode & 0o7777; } catch { /* new file */ }
    if (mode !== null) {
      try { fchmodSync(fd, mode); } catch (e) { throw ioError('set permissions of', path, e); }
    }
    try { fsyncSync(fd); } catch (e) { throw ioError('fsync', path, e); }
    closeSync(fd); fd = undefined;
    try { renameSync(tmp, path); } catch (e) { throw ioError('replace', path, e); }
    done = true;
    try {
      const dfd = openSync(dir, 'r');
      try { fsyncSync(dfd); } finally { closeSync(dfd); }
    } catch (e) {
      throw ioError('fsync the directory of', path, e);
    }
  } catch (e) {
    if (e instanceof StoreError) throw e;
    throw ioError('write', path, e);
  } finally {
    if (fd !== undefined) { try { closeSync(fd); } catch { /* already closed */ } }
    if (!done) { try { unlinkSync(tmp); } catch { /* gone */ } }
  }
}

function formatWaited(ms) {
  return `${(ms / 1000).toFixed(6).replace(/\.?0+$/, '')}s`;
}

/**
 * Take `state.lock` exclusively. The Rust and Python hosts use flock(2) on that file; Node has no
 * flock, so the lock is held by a `flock(1)` child process (util-linux) on the same file, which
 * interoperates with them. The child exits — releasing the lock — when we close its stdin, also if
 * this process dies. Without a `flock` program, a Node-only lock file `state.lock.node` is used
 * instead (excludes other Node processes only; see README).
 */
async function takeLock(dir, timeoutMs) {
  const path = join(dir, 'state.lock');
  try {
    closeSync(openSync(path, fsConstants.O_WRONLY | fsConstants.O_CREAT, 0o644));
  } catch (e) {
    throw ioError('open', path, e);
  }
  const start = Date.now();
  const locked = () => new StoreError(
    `${path} is held by another skill-recommender process; gave up after ${formatWaited(Date.now() - start)}`, path);
  const viaFlock = await new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn('flock', ['--exclusive', '--wait', String(Math.max(timeoutMs, 1) / 1000), path,
        'sh', '-c', 'echo locked && exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch (e) {
      resolve(null);
      return;
    }
    let out = '';
    let settled = false;
    child.on('error', (e) => {
      if (settled) return;
      settled = true;
      if (e.code === 'ENOENT') resolve(null); else reject(ioError('lock', path, e));
    });
    child.stdout.on('data', (d) => {
      out += d;
      if (!settled && out.includes('locked')) {
        settled = true;
        const exited = new Promise((r) => child.once('exit', r));
        resolve({
          release: async () => {
            child.stdin.end();
            await exited;
          },
        });
      }
    });
    child.on('exit', () => {
      if (!settled) { settled = true; reject(locked()); }
    });
  });
  if (viaFlock) return viaFlock;
  // Fallback: an exclusively created lock file with the holder's pid; a dead holder's file is stale.
  const nodeLock = `${path}.node`;
  for (;;) {
    try {
      const fd = openSync(nodeLock, 'wx', 0o644);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: async () => { try { unlinkSync(nodeLock); } catch { /* gone */ } } };
    } catch (e) {
      if (e.code !== 'EEXIST') throw ioError('lock', nodeLock, e);
      let pid = NaN;
      try { pid = Number(readFileSync(nodeLock, 'utf8')); } catch { /* racing */ }
      let alive = true;
      if (Number.isInteger(pid) && pid > 0) {
        try { process.kill(pid, 0); } catch (k) { alive = k.code === 'EPERM'; }
      }
      if (!alive) { try { unlinkSync(nodeLock); } catch { /* racing */ } continue; }
      if (Date.now() - start >= timeoutMs) throw locked();
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

function sameFile(a, b) {
  try { return realpathSync(a) === realpathSync(b); } catch { return false; }
}

function deepEqual(a, b) {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

export function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
    return out;
  }
  return v;
}

/** The real store: state.json and history.json in a directory outside the skill's install directory. */
export class FileStateStore {
  constructor(dir, { legacyDir = null, maxDocumentBytes = 64 << 20, lockTimeoutMs = 30_000 } = {}) {
    this.dir = dir;
    this.legacyDir = legacyDir;
    this.maxDocumentBytes = maxDocumentBytes;
    this.lockTimeoutMs = lockTimeoutMs;
    /** Legacy files migrated so far: [{from, to}]. */
    this.migrations = [];
  }

  path(doc) { return join(this.dir, fileName(doc)); }

  location(doc) { return this.path(doc); }

  /** Start a transaction: exclusive lock, legacy migration, then reads and one commit. */
  async begin() {
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch (e) {
      throw ioError('create the state directory', this.dir, e);
    }
    const lock = await takeLock(this.dir, this.lockTimeoutMs);
    try {
      this.#migrate('state');
      this.#migrate('history');
    } catch (e) {
      await lock.release();
      throw e;
    }
    const store = this;
    return {
      read: (doc) => readCapped(store.path(doc), store.maxDocumentBytes),
      commit: (writes) => { for (const [doc, text] of writes) atomicWrite(store.path(doc), text); },
      release: () => lock.release(),
    };
  }

  #migrate(doc) {
    if (!this.legacyDir) return;
    const to = this.path(doc);
    const from = join(this.legacyDir, fileName(doc));
    let isFile = false;
    try { isFile = statSync(from).isFile(); } catch { /* absent */ }
    if (existsSync(to) || !isFile || sameFile(from, to)) return;
    const text = readCapped(from, this.maxDocumentBytes) ?? '';
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new StoreError(`legacy file ${from} cannot be migrated: not valid JSON (${e.message}); it was left as it is`, from);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      throw new StoreError(`legacy file ${from} cannot be migrated: not a JSON object; it was left as it is`, from);
    }
    if (deepEqual(JSON.parse(TEMPLATES[doc]), value)) return; // an untouched template carries nothing
    atomicWrite(to, text);
    this.migrations.push({ from, to });
  }
}

/** An in-memory store (tests, embedding without files). Calls on one store are serialized. */
export class MemoryStateStore {
  constructor({ state = null, history = null } = {}) {
    this.docs = { state, history };
    this.queue = Promise.resolve();
  }

  get(doc) { return this.docs[doc]; }

  location() { return null; }

  async begin() {
    let release;
    const prev = this.queue;
    this.queue = new Promise((r) => { release = r; });
    await prev;
    return {
      read: (doc) => this.docs[doc],
      commit: (writes) => { for (const [doc, text] of writes) this.docs[doc] = text; },
      release: async () => release(),
    };
  }
}

/** For calls that need no state (normalize, scan, validate): no files, no lock, no writes. */
export class NullStateStore {
  location() { return null; }

  async begin() {
    return {
      read: () => null,
      commit: (writes) => {
        if (writes.length) throw new StoreError(`this call may not write state, but the component staged ${fileName(writes[0][0])}`);
      },
      release: async () => {},
    };
  }
}
