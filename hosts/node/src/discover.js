// Installed-skill discovery (host-harness/src/discover.rs): the component cannot read directories, so
// the host reads each <dir>/<skill>/SKILL.md (and one level of category folders) and passes the
// frontmatter `name` and source URL. Unreadable or malformed skills are skipped with a warning.
//
// Difference from the Rust host: the frontmatter is read with a small parser for the flat subset skills
// use (`key: value` scalars, plain or quoted, and one nested `metadata:` map), not a full YAML parser;
// a frontmatter outside that subset is skipped with a warning (the Rust host may accept it).
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ioMessage } from './errors.js';

export const MAX_SKILL_MD_BYTES = 1 << 20;
export const MAX_ENTRIES_PER_DIR = 5000;

/** The conventional skill directories, project-local first. */
export function defaultDirs(cwd, home) {
  const dirs = [{ path: join(cwd, '.agents/skills'), label: 'agents' }];
  if (home) dirs.push({ path: join(home, '.agents/skills'), label: 'agents' });
  dirs.push({ path: join(cwd, '.claude/skills'), label: 'claude' });
  if (home) {
    for (const [p, label] of [['.claude/skills', 'claude'], ['.hermes/skills', 'hermes'], ['.codex/skills', 'codex'], ['.openclaw/skills', 'openclaw']]) {
      dirs.push({ path: join(home, p), label });
    }
  }
  return dirs;
}

const isDir = (p) => { try { return statSync(p).isDirectory(); } catch { return false; } };
const isFile = (p) => { try { return statSync(p).isFile(); } catch { return false; } };

function sortedSubdirs(dir, warnings) {
  let names;
  try {
    names = readdirSync(dir);
  } catch (e) {
    warnings.push(`${dir}: cannot list (${ioMessage(e)})`);
    return [];
  }
  return names.slice(0, MAX_ENTRIES_PER_DIR)
    .map((n) => join(dir, n))
    .filter((p) => isDir(p) && !p.split('/').pop().startsWith('.'))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** {skills: [{name, dir, source, sourceUrl}], warnings: [], scanned: []} */
export function discover(dirs) {
  const out = { skills: [], warnings: [], scanned: [] };
  const seen = new Set();
  for (const d of dirs) {
    let canon;
    try { canon = realpathSync(d.path); } catch { continue; }
    if (!isDir(canon) || seen.has(canon)) continue;
    seen.add(canon);
    out.scanned.push(d.path);
    for (const entry of sortedSubdirs(canon, out.warnings)) {
      if (isFile(join(entry, 'SKILL.md'))) {
        readSkill(entry, d.label, out);
      } else {
        for (const sub of sortedSubdirs(entry, out.warnings)) {
          if (isFile(join(sub, 'SKILL.md'))) readSkill(sub, d.label, out);
        }
      }
    }
  }
  return out;
}

function readSkill(dir, label, out) {
  const path = join(dir, 'SKILL.md');
  const warn = (why) => out.warnings.push(`${path}: skipped (${why})`);
  let st;
  try { st = statSync(path); } catch (e) { return warn(ioMessage(e)); }
  if (st.size > MAX_SKILL_MD_BYTES) return warn(`${st.size} bytes, over ${MAX_SKILL_MD_BYTES}`);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(path));
  } catch (e) {
    return warn(e.code ? ioMessage(e) : 'not UTF-8');
  }
  let fields;
  try { fields = frontmatter(text); } catch (e) { return warn(e.message); }
  const name = typeof fields.name === 'string' ? fields.name.trim() : '';
  if (!name) return warn('frontmatter has no `name`');
  const metadata = fields.metadata && typeof fields.metadata === 'object' ? fields.metadata : null;
  let sourceUrl;
  for (const k of ['repository', 'source_url', 'homepage', 'source']) {
    const v = fields[k] !== undefined ? fields[k] : metadata?.[k];
    if (typeof v === 'string' && (v.startsWith('http://') || v.startsWith('https://'))) { sourceUrl = v; break; }
  }
  out.skills.push({ name, dir, source: label, sourceUrl });
}

function scalar(raw) {
  let v = raw.trim();
  if (v.startsWith('"')) {
    const end = v.lastIndexOf('"');
    if (end <= 0) throw new Error('frontmatter is not valid YAML: unterminated double-quoted string');
    return JSON.parse(v.slice(0, end + 1));
  }
  if (v.startsWith("'")) {
    const end = v.lastIndexOf("'");
    if (end <= 0) throw new Error('frontmatter is not valid YAML: unterminated single-quoted string');
    return v.slice(1, end).replace(/''/g, "'");
  }
  if (/^[[{]/.test(v) && !/[\]}]\s*$/.test(v)) throw new Error('frontmatter is not valid YAML: unclosed flow collection');
  const hash = v.search(/\s#/);
  if (hash >= 0) v = v.slice(0, hash).trim();
  return v;
}

/** The frontmatter's top-level fields (the flat subset; see the module comment). */
export function frontmatter(text) {
  const t = text.startsWith('\ufeff') ? text.slice(1) : text;
  const lines = t.split(/\r?\n/);
  if ((lines[0] ?? '').trimEnd() !== '---') throw new Error('no YAML frontmatter (the file must start with ---)');
  const fields = {};
  let closed = false;
  let nested = null;
  for (const line of lines.slice(1)) {
    const tr = line.trimEnd();
    if (tr === '---' || tr === '...') { closed = true; break; }
    if (!tr.trim() || tr.trim().startsWith('#')) continue;
    const indented = /^\s/.test(line);
    const m = /^\s*([^:#\s][^:]*?):(?:\s+(.*)|\s*)$/.exec(tr);
    if (indented) {
      if (nested && m) nested[m[1]] = scalar(m[2] ?? '');
      continue; // continuation lines of other values are not needed
    }
    if (!m) throw new Error('frontmatter is not valid YAML: expected `key: value`');
    if (m[2] === undefined || m[2].trim() === '') {
      nested = {};
      fields[m[1]] = nested;
    } else {
      nested = null;
      fields[m[1]] = scalar(m[2]);
    }
  }
  if (!closed) throw new Error('the frontmatter is not closed by ---');
  return fields;
}
