// JSON as the Rust CLI prints it: keys sorted (serde_json's map), and numbers exactly as the component
// wrote them — a float like 20.0 stays "20.0" (JSON.parse would turn it into 20). The CLI parses the
// component's output with parseKeepingNumbers() and prints with stringifySorted().

/** A number kept as its JSON text (floats and integers outside JavaScript's safe range). */
export class RawNumber {
  constructor(text) { this.text = text; }
  valueOf() { return Number(this.text); }
  toJSON() { return Number(this.text); }
}

/** JSON.parse, except that non-integer and unsafe-integer numbers become RawNumber. */
export function parseKeepingNumbers(text) {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const fail = () => { throw new SyntaxError(`invalid JSON at position ${i}`); };
  function value() {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const obj = {}; ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws(); if (text[i] !== '"') fail();
        const k = string(); ws(); if (text[i++] !== ':') fail();
        obj[k] = value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return obj; }
        fail();
      }
    }
    if (c === '[') {
      i++; const arr = []; ws();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value()); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return arr; }
        fail();
      }
    }
    if (c === '"') return string();
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (m && m[0]) {
      i += m[0].length;
      const n = Number(m[0]);
      return /^-?\d+$/.test(m[0]) && Number.isSafeInteger(n) ? n : new RawNumber(m[0]);
    }
    for (const [lit, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(lit, i)) { i += lit.length; return v; }
    }
    return fail();
  }
  function string() {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return JSON.parse(text.slice(start, i));
  }
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

/** Serialize with sorted keys, 2-space indentation (or compact), RawNumber as its text. */
export function stringifySorted(v, compact = false, indent = '') {
  if (v instanceof RawNumber) return v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  const inner = `${indent}  `;
  const nl = compact ? '' : '\n';
  const sep = compact ? ':' : ': ';
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    const items = v.map((x) => `${compact ? '' : inner}${stringifySorted(x, compact, inner)}`);
    return `[${nl}${items.join(`,${nl}`)}${nl}${compact ? '' : indent}]`;
  }
  const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
  if (!keys.length) return '{}';
  const items = keys.map((k) => `${compact ? '' : inner}${JSON.stringify(k)}${sep}${stringifySorted(v[k], compact, inner)}`);
  return `{${nl}${items.join(`,${nl}`)}${nl}${compact ? '' : indent}}`;
}
