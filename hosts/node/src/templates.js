// The original's default state.json / history.json (copied from data/ into dist/ by the build), used
// to tell a real legacy file from an untouched template during migration.
import { readFileSync } from 'node:fs';

let cached;
export const TEMPLATES = new Proxy({}, {
  get(_, doc) {
    cached ??= JSON.parse(readFileSync(new URL('../dist/templates.json', import.meta.url), 'utf8'));
    return cached[doc];
  },
});
