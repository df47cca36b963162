// Give every memory a core module defines a maximum, so the engine itself refuses growth past the cap
// (the Rust host does the same with a wasmtime ResourceLimiter). Only the memory section is rewritten;
// every other section is copied byte for byte.

function leb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function readLeb(bytes, pos) {
  let result = 0; let shift = 0; let b;
  do {
    b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [result, pos];
}

/** A copy of the core module `bytes` whose memories are capped at `maxPages` 64 KiB pages. */
export function capMemory(bytes, maxPages) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const parts = [b.subarray(0, 8)];
  let pos = 8;
  while (pos < b.length) {
    const start = pos;
    const id = b[pos++];
    let size;
    [size, pos] = readLeb(b, pos);
    const end = pos + size;
    if (id !== 5) {
      parts.push(b.subarray(start, end));
      pos = end;
      continue;
    }
    let count; let p;
    [count, p] = readLeb(b, pos);
    const body = [...leb(count)];
    for (let i = 0; i < count; i++) {
      const flag = b[p++];
      if (flag > 0x01) return b; // shared or 64-bit memories: left as they are
      let min; let max;
      [min, p] = readLeb(b, p);
      if (flag === 0x01) [max, p] = readLeb(b, p);
      const capped = Math.max(min, max === undefined ? maxPages : Math.min(max, maxPages));
      body.push(0x01, ...leb(min), ...leb(capped));
    }
    parts.push(Uint8Array.from([5, ...leb(body.length), ...body]));
    pos = end;
  }
  const out = new Uint8Array(parts.reduce((n, x) => n + x.length, 0));
  let o = 0;
  for (const x of parts) { out.set(x, o); o += x.length; }
  return out;
}
