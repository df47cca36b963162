// The component, transpiled by jco (dist/guest.js, instantiation mode). Every call gets a fresh instance
// in a worker thread — like the Rust host's fresh wasmtime Store per call — with the state-store import
// backed by a store session in this thread, a wall-clock deadline that grows with the input (the worker
// is terminated) and a memory cap (every core memory gets a maximum; growth past it fails inside the
// engine).
import { readFileSync } from 'node:fs';
import { Worker, MessageChannel } from 'node:worker_threads';
import { HostError, corruptDocument, invalidInput, limit, refused, storeError, trap } from './errors.js';
import { StoreError, fileName } from './store.js';
import { capMemory } from './wasm-patch.js';
import { parseKeepingNumbers } from './json.js';

export const DEFAULT_DIST = new URL('../dist/', import.meta.url);

/** Wall time per call on a small input (host-harness `Limits::default().deadline`). */
export const DEADLINE_MS = 10_000;
/** Extra wall time per started MiB of input (host-harness `Limits::default().deadline_per_mib`). */
export const DEADLINE_PER_MIB_MS = 1_000;
const MIB = 1024 * 1024;
// setTimeout fires at once for a delay over 2^31 - 1 ms (about 24.8 days); longer deadlines saturate there.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The Rust host's defaults. deadlineMs: wall time per call (null: none); deadlinePerMibMs: added per
 * started MiB of input; maxMemoryBytes: the guest's linear memory.
 */
export const LIMITS = {
  deadlineMs: DEADLINE_MS,
  deadlinePerMibMs: DEADLINE_PER_MIB_MS,
  maxMemoryBytes: 512 * 1024 * 1024,
  maxDocumentBytes: 64 * 1024 * 1024,
  maxInputBytes: 64 * 1024 * 1024,
  maxGuestStderrBytes: 64 * 1024,
};

const loaded = new Map();

/**
 * The deadline in ms for a call with `inputBytes` of input (host-harness `Limits::deadline_for`):
 * deadlineMs plus deadlinePerMibMs per started MiB, so 0 bytes -> 10 s, 1 byte .. 1 MiB -> 11 s,
 * 1 MiB + 1 -> 12 s with the defaults. null when deadlineMs is null (no deadline).
 */
export function deadlineFor(limits, inputBytes = 0) {
  if (limits.deadlineMs == null) return null;
  const mib = Math.ceil(Math.max(0, inputBytes) / MIB);
  const ms = limits.deadlineMs + (limits.deadlinePerMibMs ?? DEADLINE_PER_MIB_MS) * mib;
  return Math.min(ms, MAX_TIMER_MS);
}

/**
 * Load a transpiled component once per process: the recorded metadata and the compiled core modules
 * (memory-capped). `dist` defaults to the package's dist/.
 */
export async function loadComponent(dist = DEFAULT_DIST, limits = LIMITS) {
  const url = dist instanceof URL ? dist : new URL(`file://${String(dist).replace(/\/?$/, '/')}`);
  const key = `${url.href}|${limits.maxMemoryBytes}`;
  if (loaded.has(key)) return loaded.get(key);
  let meta;
  try {
    meta = JSON.parse(readFileSync(new URL('component.json', url), 'utf8'));
  } catch {
    throw new HostError('component_load', 1,
      `cannot load the component: ${new URL('component.json', url).pathname} is missing — run \`npm run build\` in hosts/node (after \`cargo build -p host-harness\`)`);
  }
  const pages = Math.max(1, Math.floor(limits.maxMemoryBytes / 65536));
  const modules = {};
  try {
    for (const name of meta.core_modules) {
      modules[name] = new WebAssembly.Module(capMemory(readFileSync(new URL(name, url)), pages));
    }
  } catch (e) {
    throw new HostError('component_load', 1, `cannot load the component: ${e.message}`);
  }
  const c = { url, meta, modules };
  loaded.set(key, c);
  return c;
}

/**
 * Run one export as one transaction on `store`: exclusive session; loads served from the store (or this
 * call's staged saves); saves committed only when the export returns ok.
 * `call` = {iface, fn, args, inputBytes}: inputBytes (UTF-8 bytes of the candidates, the normalize or
 * render input, or a bundle's file contents; 0 for the rest) sets the deadline, see deadlineFor.
 * keepNumbers: floats stay RawNumber (the CLI prints them as the Rust CLI does).
 */
export async function callGuest(store, call, { dist = DEFAULT_DIST, limits = LIMITS, keepNumbers = false } = {}) {
  const component = await loadComponent(dist, limits);
  let session;
  try {
    session = await store.begin();
  } catch (e) {
    if (e instanceof StoreError) throw storeError(e.message, e.path);
    throw e;
  }
  try {
    const r = await runInWorker(component, call, session, limits, deadlineFor(limits, call.inputBytes ?? 0));
    if (r.limit) throw limit('deadline', 'the call ran past its time limit');
    if (r.guestError) throw guestError(r.guestError, store, r.storeErr);
    if (r.trap !== undefined) {
      if (/memory allocation of \d+ bytes failed/.test(r.stderr)) {
        throw limit('memory', 'the call tried to use more memory than allowed');
      }
      throw trap(r.trap, r.stderr);
    }
    try {
      session.commit(r.staged);
    } catch (e) {
      if (e instanceof StoreError) throw storeError(e.message, e.path);
      throw e;
    }
    try {
      return keepNumbers ? parseKeepingNumbers(r.ok) : JSON.parse(r.ok);
    } catch (e) {
      throw new HostError('component_load', 1, `cannot load the component: the component returned invalid JSON: ${e.message}`);
    }
  } finally {
    await session.release();
  }
}

function runInWorker(component, { iface, fn, args, lookupCommands = false }, session, limits, deadlineMs) {
  return new Promise((resolve, reject) => {
    const { port1, port2 } = new MessageChannel();
    const flagBuffer = new SharedArrayBuffer(4);
    const flag = new Int32Array(flagBuffer);
    const worker = new Worker(new URL('./worker.js', import.meta.url), {
      workerData: {
        distUrl: component.url.href,
        modules: component.modules,
        port: port2,
        flag: flagBuffer,
        call: { iface, fn, args, lookupCommands },
        limits: { maxDocumentBytes: limits.maxDocumentBytes, maxGuestStderrBytes: limits.maxGuestStderrBytes },
      },
      transferList: [port2],
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (fn, v) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      port1.close();
      fn(v);
    };
    port1.on('message', (m) => {
      let reply;
      try {
        reply = { text: session.read(m.load) ?? null };
      } catch (e) {
        reply = { error: e instanceof StoreError ? e.message : String(e?.message ?? e), path: e?.path ?? null };
        reply.storeError = true;
      }
      port1.postMessage(reply);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
    let timedOut = false;
    const timer = deadlineMs == null ? null : setTimeout(() => {
      timedOut = true;
      worker.terminate().finally(() => finish(resolve, { limit: 'deadline' }));
    }, deadlineMs);
    worker.once('message', (m) => {
      finish(resolve, m);
      worker.terminate();
    });
    worker.once('error', (e) => finish(resolve, { trap: String(e?.message ?? e), stderr: '' }));
    worker.once('exit', (code) => (timedOut ? finish(resolve, { limit: 'deadline' }) : finish(reject, new HostError('component_trap', 1,
      `the component trapped: the worker running it exited (${code}) without a result`, { guest_stderr: '' }))));
  });
}

function guestError(err, store, storeErr) {
  switch (err.tag) {
    case 'invalid-input':
      return invalidInput(err.val.field, err.val.message);
    case 'corrupt-document':
      return corruptDocument(fileName(err.val.document), store.location(err.val.document), err.val.message);
    case 'refused':
      return refused(err.val);
    case 'store':
      if (storeErr) return storeError(storeErr.message, storeErr.path);
      return new HostError('component_load', 1,
        `cannot load the component: the component reported a store error the host did not raise: ${err.val}`);
    default:
      return trap(`unknown error variant ${err.tag}`, '');
  }
}
