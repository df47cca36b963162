// The component, transpiled by jco (dist/guest.js, instantiation mode), with one fresh instance per
// call — like the Rust host's fresh wasmtime Store — and the state-store import backed by a store session.
import { readFileSync } from 'node:fs';
import { HostError, corruptDocument, invalidInput, refused, storeError, trap } from './errors.js';
import { StoreError, fileName } from './store.js';
import { makeWasiStubs } from './wasi-stubs.js';

const DIST = new URL('../dist/', import.meta.url);

/** Limits (the Rust defaults where Node can enforce them). */
export const LIMITS = {
  maxDocumentBytes: 64 << 20,
  maxInputBytes: 64 << 20,
  maxGuestStderrBytes: 64 << 10,
};

let loaded;

/** Load dist/ once: the bindings, the compiled core modules and the recorded import list. */
export async function loadComponent() {
  if (loaded) return loaded;
  let meta;
  try {
    meta = JSON.parse(readFileSync(new URL('component.json', DIST), 'utf8'));
  } catch (e) {
    throw new HostError('component_load', 1,
      `cannot load the component: ${new URL('component.json', DIST).pathname} is missing — run \`npm run build\` in hosts/node (after \`cargo build -p host-harness\`)`);
  }
  const { instantiate } = await import(new URL('guest.js', DIST).href);
  const modules = new Map();
  for (const name of meta.core_modules) {
    modules.set(name, new WebAssembly.Module(readFileSync(new URL(name, DIST))));
  }
  loaded = { instantiate, modules, meta };
  return loaded;
}

/**
 * Run `f(exports)` as one transaction on `store`: exclusive session, loads served from the store (or
 * from this call's staged saves), saves staged and committed only when the export returns ok.
 */
export async function callGuest(store, f) {
  const { instantiate, modules } = await loadComponent();
  let session;
  try {
    session = await store.begin();
  } catch (e) {
    if (e instanceof StoreError) throw storeError(e.message, e.path);
    throw e;
  }
  try {
    const staged = new Map();
    let storeErr = null;
    const stateStore = {
      load(doc) {
        if (staged.has(doc)) return staged.get(doc);
        try {
          return session.read(doc) ?? undefined;
        } catch (e) {
          storeErr = e;
          throw e instanceof StoreError ? e.message : String(e?.message ?? e);
        }
      },
      save(doc, json) {
        const size = Buffer.byteLength(json, 'utf8');
        if (size > LIMITS.maxDocumentBytes) {
          storeErr = new StoreError(`the component staged a ${size}-byte ${fileName(doc)}, over the ${LIMITS.maxDocumentBytes}-byte limit`);
          throw storeErr.message;
        }
        staged.delete(doc);
        staged.set(doc, json);
      },
    };
    const wasi = makeWasiStubs(LIMITS.maxGuestStderrBytes);
    let text;
    try {
      const instance = instantiate((name) => modules.get(name), {
        ...wasi.imports,
        'skill-recommender:core/state-store': stateStore,
        'skill-recommender:core/types': {},
      });
      text = f(instance);
    } catch (e) {
      if (e && Object.prototype.hasOwnProperty.call(e, 'payload') && e.payload && e.payload.tag) {
        throw guestError(e.payload, store, storeErr);
      }
      if (e instanceof HostError) throw e;
      throw trap(e?.message ?? String(e), wasi.stderrText());
    }
    try {
      session.commit([...staged.entries()]);
    } catch (e) {
      if (e instanceof StoreError) throw storeError(e.message, e.path);
      throw e;
    }
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new HostError('component_load', 1, `cannot load the component: the component returned invalid JSON: ${e.message}`);
    }
  } finally {
    await session.release();
  }
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
      if (storeErr instanceof StoreError) return storeError(storeErr.message, storeErr.path);
      return new HostError('component_load', 1,
        `cannot load the component: the component reported a store error the host did not raise: ${err.val}`);
    default:
      return trap(`unknown error variant ${err.tag}`, '');
  }
}
