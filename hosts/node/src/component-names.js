// Reads the top-level import and export names of a WebAssembly component binary, in the order the
// component declares them (the order wasmtime reports, so `status` prints the same list as the Rust CLI).

function reader(bytes) {
  let pos = 0;
  const r = {
    get pos() { return pos; },
    set pos(p) { pos = p; },
    byte() {
      if (pos >= bytes.length) throw new Error('unexpected end of the binary');
      return bytes[pos++];
    },
    u32() {
      let result = 0; let shift = 0;
      for (;;) {
        const b = r.byte();
        result += (b & 0x7f) * 2 ** shift;
        if ((b & 0x80) === 0) return result;
        shift += 7;
        if (shift > 35) throw new Error('LEB128 integer too long');
      }
    },
    name() {
      const len = r.u32();
      if (pos + len > bytes.length) throw new Error('name past the end of the binary');
      const s = Buffer.from(bytes.subarray(pos, pos + len)).toString('utf8');
      pos += len;
      return s;
    },
  };
  return r;
}

function externName(r) {
  const tag = r.byte();
  if (tag === 0x00 || tag === 0x01) return r.name();
  throw new Error(`unknown extern name form 0x${tag.toString(16)}`);
}

function externDesc(r) {
  const sort = r.byte();
  switch (sort) {
    case 0x00: r.byte(); r.u32(); break; // core module type
    case 0x01: case 0x04: case 0x05: r.u32(); break; // func, component, instance type index
    case 0x02: { const b = r.byte(); if (b === 0x00) r.u32(); else valType(r); break; } // value bound
    case 0x03: { const b = r.byte(); if (b === 0x00) r.u32(); break; } // type bound: eq i | sub resource
    default: throw new Error(`unknown externdesc 0x${sort.toString(16)}`);
  }
}

function valType(r) {
  const b = r.byte();
  if (b >= 0x73) return; // primitive value types are single bytes (0x73..0x7f)
  r.pos -= 1; r.u32(); // a type index (signed LEB, non-negative here)
}

/** `{imports: string[], exports: string[]}` of a component binary. */
export function componentNames(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const r = reader(u8);
  const magic = [0x00, 0x61, 0x73, 0x6d];
  for (const m of magic) if (r.byte() !== m) throw new Error('no \\0asm magic');
  const version = [r.byte(), r.byte(), r.byte(), r.byte()];
  if (version[2] !== 0x01) throw new Error('a core module, not a component');
  const imports = []; const exports = [];
  while (r.pos < u8.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    if (id === 10) {
      const n = r.u32();
      for (let i = 0; i < n; i++) { imports.push(externName(r)); externDesc(r); }
    } else if (id === 11) {
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        exports.push(externName(r));
        const sort = r.byte(); if (sort === 0x00) r.byte();
        r.u32();
        if (r.byte() === 0x01) externDesc(r);
      }
    }
    r.pos = end;
  }
  return { imports, exports };
}
