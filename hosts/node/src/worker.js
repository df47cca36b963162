// One guest call, in a worker thread so the host can stop it at its deadline. The state store stays in
// the main thread: each load is a synchronous request over a MessagePort (the worker blocks on
// Atomics.wait until the answer is there); saves are staged here and handed back with the result.
import { parentPort, workerData, receiveMessageOnPort } from 'node:worker_threads';
import { makeWasiStubs } from './wasi-stubs.js';
import { findCommands } from './commands.js';

const { distUrl, modules, port, flag: flagBuffer, call, limits } = workerData;
const flag = new Int32Array(flagBuffer);

function request(msg) {
  Atomics.store(flag, 0, 0);
  port.postMessage(msg);
  for (;;) {
    Atomics.wait(flag, 0, 0, 1000);
    const got = receiveMessageOnPort(port);
    if (got) return got.message;
  }
}

const { instantiate } = await import(new URL('guest.js', distUrl).href);
const staged = new Map();
let storeErr = null;
const stateStore = {
  load(doc) {
    if (staged.has(doc)) return staged.get(doc);
    const r = request({ load: doc });
    if (r.error !== undefined) {
      storeErr = { message: r.error, path: r.path ?? null };
      throw r.error;
    }
    return r.text ?? undefined;
  },
  save(doc, json) {
    const size = Buffer.byteLength(json, 'utf8');
    if (size > limits.maxDocumentBytes) {
      const file = doc === 'state' ? 'state.json' : 'history.json';
      storeErr = { message: `the component staged a ${size}-byte ${file}, over the ${limits.maxDocumentBytes}-byte limit`, path: null };
      throw storeErr.message;
    }
    staged.delete(doc);
    staged.set(doc, json);
  },
};
const wasi = makeWasiStubs(limits.maxGuestStderrBytes);
try {
  const instance = instantiate((name) => modules[name], {
    ...wasi.imports,
    'skill-recommender:core/state-store': stateStore,
    'skill-recommender:core/host-env': { findCommands: (names) => findCommands(names, call.lookupCommands) },
    'skill-recommender:core/types': {},
  });
  const text = instance[call.iface][call.fn](...call.args);
  parentPort.postMessage({ ok: text, staged: [...staged.entries()] });
} catch (e) {
  if (e && Object.prototype.hasOwnProperty.call(e, 'payload') && e.payload && e.payload.tag) {
    parentPort.postMessage({ guestError: e.payload, storeErr });
  } else {
    parentPort.postMessage({ trap: String(e?.message ?? e), stderr: wasi.stderrText() });
  }
}
