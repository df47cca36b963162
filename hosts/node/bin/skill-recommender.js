#!/usr/bin/env node
// `skill-recommender` on Node: the same commands, global flags, JSON output, errors and exit codes as the
// Rust CLI (host-harness/src/bin/skill-recommender/). All judging happens in the component.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { HostError, invalidInput } from '../src/errors.js';
import { ioMessage } from '../src/errors.js';
import { openHost } from '../src/index.js';
import { stringifySorted } from '../src/json.js';

const VERSION = '0.1.0';

const HELP = `Discover, vet and recommend agent skills: the deterministic half of the skill-recommender protocol,
run in a WebAssembly sandbox with no file, network, environment or process access. (Node host, jco.)

Usage: skill-recommender [OPTIONS] <COMMAND>

Commands:
  status                 [--verbose]: show the state summary (--verbose: the host's internals). Never writes.
  prompt-daily           --source post_install|manual: record that the daily question was asked
  enable-daily           [--scheduler-available]: -> pending_schedule; prints the automation to create
  confirm-daily-enabled  The automation was created: pending_schedule -> enabled
  fail-daily-schedule    --reason R: pending_schedule -> prompted, keeping the reason
  disable-daily          any -> disabled
  unsupported-daily      any but enabled -> unsupported
  daily-gate             [--no-search-capability]: may the daily run go ahead now?
  failure-notice         --dismiss|--restore
  update-check           --remote-version R [--local-version V]
  update-notice          --accept|--dismiss
  shown                  --skill-id ID [--skill-name N] [--skill-url U] [--categories a,b] [--mode manual|daily]
  accept|reject          --skill-id ID (the card's ID, or the name it showed) [--skill-name N --skill-url U] [--categories a,b]
  normalize              [--from REGISTRY] [--base-url URL] FILE|-
  filter                 --candidates FILE|- [--from REGISTRY [--base-url URL]] --mode manual|daily [--platform OS] [--capabilities LIST] [--skills-dir DIR]... [--no-discover]
  scan                   --candidates FILE|- [--from REGISTRY [--base-url URL]] --mode manual|daily
  scan-bundle            PATH [--trust T] [--source URL] [--force] [--text]   (folder or SKILL.md)
  validate               PATH [--strict] [--quality]
  rank                   --candidates FILE|- [--from REGISTRY [--base-url URL]] --mode manual|daily [--task TEXT] [--signal TEXT]... [--platform OS] [--capabilities LIST] [--skills-dir DIR]... [--no-discover]
  recommend              --mode manual|daily (--candidates FILE|- [--from REGISTRY [--base-url URL]] | --sample) [--task TEXT] [--signal TEXT]... [--platform OS] [--capabilities LIST] [--json] [--dry-run]
                         [--remote-version SEMVER [--local-version SEMVER]] [--other-question] [--skills-dir DIR]... [--no-discover]
  render                 --mode manual|daily --input FILE|- [--json]

Options:
  --state-dir <DIR>        State directory (default: see below)
  --now <RFC3339>          The current time (default: the system clock)
  --timezone <ZONE>        The host's IANA time zone (default: the system's zone)
  --lang <LANG>            zh or en (default: the state's lang, else the locale: LC_ALL, LC_MESSAGES, LANG)
  --legacy-data-dir <DIR>  Migrate a legacy in-repo data/ directory once
  --cache-dir <DIR>        Accepted for compatibility; the Node host keeps no compiled cache
  --no-cache               Accepted for compatibility (there is no cache)
  --component <FILE>       Refused: the Node host runs the component transpiled at build time
  --compact                Print JSON on one line
  -h, --help               Print help
  -V, --version            Print version

State lives outside the skill's install directory, first match wins:
  --state-dir DIR, $SKILL_RECOMMENDER_STATE_DIR, $HERMES_HOME/state/skill-recommender,
  ~/.hermes/state/skill-recommender (if ~/.hermes exists), ~/.skill-recommender

Exit codes: 0 success, 1 internal, 2 usage, 3 invalid input, 4 state error, 5 sandbox limit,
6 refused transition, 7 partial (normalize), 8 block/invalid, 9 ask, 10 nothing usable (every
candidate dropped or blocked).
`;

class UsageError extends Error {}

/** What `recommend` says without candidates (the Rust CLI's words). */
const NO_CANDIDATES = 'no candidates given: pass --candidates FILE (or - for standard input) with what your search found — {"candidates": [{"skill_id", "name", "url", "description", "source"}, ...]} (schema/candidates.schema.json) or a registry\'s own API response — or --sample for the built-in demonstration';

const GLOBAL_VALUES = new Set(['--state-dir', '--now', '--timezone', '--lang', '--legacy-data-dir', '--cache-dir', '--component']);
const GLOBAL_FLAGS = new Set(['--no-cache', '--compact']);
const ENUMS = {
  '--lang': ['zh', 'en'],
  '--source@prompt-daily': ['post_install', 'post-install', 'manual'],
  '--mode': ['manual', 'daily'],
  '--from': ['auto', 'clawhub', 'skillssh', 'smithery', 'glama', 'skillhub', 'github', 'mcpmarket', 'candidates'],
  '--trust': ['builtin', 'trusted', 'community', 'agent-created'],
};
const SKILL = { values: ['--skill-id', '--skill-name', '--skill-url'], multi: ['--categories'], flags: [], required: ['--skill-id'] };
const SHOWN = { ...SKILL, values: [...SKILL.values, '--mode'] };
const FROM = ['--from', '--base-url'];
const COMMANDS = {
  status: { flags: ['--verbose'] },
  'prompt-daily': { values: ['--source'], required: ['--source'] },
  'enable-daily': { flags: ['--scheduler-available'] },
  'confirm-daily-enabled': {},
  'fail-daily-schedule': { values: ['--reason'], required: ['--reason'] },
  'disable-daily': {},
  'unsupported-daily': {},
  'daily-gate': { flags: ['--no-search-capability'] },
  'failure-notice': { flags: ['--dismiss', '--restore'], oneOf: ['--dismiss', '--restore'] },
  'update-check': { values: ['--local-version', '--remote-version'], required: ['--remote-version'] },
  'update-notice': { flags: ['--accept', '--dismiss'], oneOf: ['--accept', '--dismiss'] },
  shown: SHOWN,
  accept: SKILL,
  reject: SKILL,
  normalize: { values: ['--from', '--base-url'], positional: 'FILE|-' },
  filter: { values: ['--candidates', '--mode', '--platform', ...FROM], multi: ['--skills-dir', '--capabilities'], flags: ['--no-discover'], required: ['--candidates', '--mode'], requires: { '--base-url': ['--from', 'REGISTRY'] } },
  scan: { values: ['--candidates', '--mode', ...FROM], required: ['--candidates', '--mode'], requires: { '--base-url': ['--from', 'REGISTRY'] } },
  'scan-bundle': { values: ['--trust', '--source'], flags: ['--force', '--text'], positional: 'PATH' },
  validate: { flags: ['--strict', '--quality'], positional: 'PATH' },
  rank: { values: ['--candidates', '--mode', '--task', '--platform', ...FROM], multi: ['--signal', '--skills-dir', '--capabilities'], flags: ['--no-discover'], required: ['--candidates', '--mode'], requires: { '--base-url': ['--from', 'REGISTRY'] } },
  recommend: {
    values: ['--mode', '--candidates', '--task', '--remote-version', '--local-version', '--platform', ...FROM],
    multi: ['--signal', '--skills-dir', '--capabilities'],
    flags: ['--json', '--dry-run', '--other-question', '--no-discover', '--sample'],
    required: ['--mode'],
    requires: { '--local-version': ['--remote-version', 'SEMVER'], '--base-url': ['--from', 'REGISTRY'] },
    conflicts: [['--sample', '--candidates'], ['--sample', '--from']],
  },
  render: { values: ['--mode', '--input'], flags: ['--json'], required: ['--mode', '--input'] },
};

/** Parse argv like clap does for the Rust CLI: global flags anywhere, `--flag value` or `--flag=value`, last wins. */
export function parse(argv) {
  const g = {};
  let command = null;
  const o = {};
  let positional;
  let onlyPositional = false;
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (!onlyPositional && (a === '-h' || a === '--help')) return { help: true };
    if (!onlyPositional && (a === '-V' || a === '--version') && !command) return { version: true };
    if (!onlyPositional && a === '--') { onlyPositional = true; continue; }
    let inline;
    if (!onlyPositional && a.startsWith('--') && a.includes('=')) {
      inline = a.slice(a.indexOf('=') + 1);
      a = a.slice(0, a.indexOf('='));
    }
    const spec = command ? COMMANDS[command] : null;
    const takeValue = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw new UsageError(`a value is required for '${a} <VALUE>' but none was supplied`);
      return argv[++i];
    };
    const checkEnum = (key, v) => {
      const allowed = ENUMS[`${key}@${command}`] ?? ENUMS[key];
      if (allowed && !allowed.includes(v)) {
        throw new UsageError(`invalid value '${v}' for '${a} <VALUE>'\n  [possible values: ${allowed.filter((x) => x !== 'post-install').join(', ')}]`);
      }
    };
    if (!onlyPositional && a.startsWith('-') && a !== '-') {
      if (GLOBAL_VALUES.has(a)) { const v = takeValue(); checkEnum(a, v); g[a] = v; continue; }
      if (GLOBAL_FLAGS.has(a)) {
        if (inline !== undefined) throw new UsageError(`unexpected value '${inline}' for '${a}' found; no more were expected`);
        g[a] = true; continue;
      }
      if (spec && (spec.values ?? []).includes(a)) {
        const v = takeValue();
        if (!(a === '--source' && command === 'scan-bundle')) checkEnum(a, v);
        o[a] = v; continue;
      }
      if (spec && (spec.multi ?? []).includes(a)) { (o[a] ??= []).push(takeValue()); continue; }
      if (spec && (spec.flags ?? []).includes(a)) {
        if (inline !== undefined) throw new UsageError(`unexpected value '${inline}' for '${a}' found; no more were expected`);
        o[a] = true; continue;
      }
      throw new UsageError(`unexpected argument '${a}' found`);
    }
    if (!command) {
      if (!COMMANDS[a]) throw new UsageError(`unrecognized subcommand '${a}'`);
      command = a;
      continue;
    }
    if (COMMANDS[command].positional && positional === undefined) { positional = a; continue; }
    throw new UsageError(`unexpected argument '${a}' found`);
  }
  if (!command) throw new UsageError("'skill-recommender' requires a subcommand but one was not provided");
  const spec = COMMANDS[command];
  for (const r of spec.required ?? []) {
    if (o[r] === undefined) throw new UsageError(`the following required arguments were not provided:\n  ${r} <VALUE>`);
  }
  for (const [flag, [needed, value]] of Object.entries(spec.requires ?? {})) {
    if (o[flag] !== undefined && o[needed] === undefined) {
      throw new UsageError(`the following required arguments were not provided:\n  ${needed} <${value}>`);
    }
  }
  if (spec.positional && positional === undefined) {
    throw new UsageError(`the following required arguments were not provided:\n  <${spec.positional}>`);
  }
  for (const [a, b] of spec.conflicts ?? []) {
    if (o[a] !== undefined && o[b] !== undefined) throw new UsageError(`the argument '${a}' cannot be used with '${b} <VALUE>'`);
  }
  if (spec.oneOf) {
    const given = spec.oneOf.filter((f) => o[f]);
    if (given.length === 0) throw new UsageError(`the following required arguments were not provided:\n  <${spec.oneOf.join('|')}>`);
    if (given.length > 1) throw new UsageError(`the argument '${given[0]}' cannot be used with '${given[1]}'`);
  }
  if (g['--cache-dir'] !== undefined && g['--no-cache']) {
    throw new UsageError("the argument '--cache-dir <DIR>' cannot be used with '--no-cache'");
  }
  return { global: g, command, options: o, positional };
}

/** Read an input file (or stdin for `-`) within the input cap; errors name the flag and the file. */
function readInput(field, path, limit) {
  const name = path === '-' ? 'standard input' : path;
  const chunks = [];
  let total = 0;
  let fd;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
    const buf = Buffer.alloc(1 << 16);
    for (;;) {
      let n;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        if (e.code === 'EAGAIN') continue;
        if (e.code === 'EOF') break;
        throw e;
      }
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      total += n;
      if (total > limit) break;
    }
  } catch (e) {
    throw invalidInput(field, `cannot read ${name}: ${ioMessage(e)}`);
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd);
  }
  if (total > limit) throw invalidInput(field, `${name} is over the ${limit}-byte input limit`);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks));
  } catch {
    throw invalidInput(field, `${name} is not UTF-8 text`);
  }
}

function print(value, compact) {
  process.stdout.write(`${stringifySorted(value, compact)}\n`);
}

/** Exit codes of successful calls that still say "no": 7 partial, 8 block/invalid, 9 ask, 10 nothing usable. */
export function exitCodeOf(v) {
  if (Array.isArray(v.skipped) && v.skipped.length) {
    process.stderr.write('skill-recommender: some items were skipped; see "skipped" in the output\n');
    return 7;
  }
  if (v.policy === 'block' || v.valid === false) return 8;
  if (v.policy === 'ask') return 9;
  // recommend: every candidate dropped or blocked (or none given); filter: nothing kept.
  if (v.reason === 'no_usable_candidates') return 10;
  if (Array.isArray(v.kept) && v.kept.length === 0 && v.mode !== undefined && v.summary?.kept === 0) return 10;
  return 0;
}

function reportText(v) {
  const s = (k) => (typeof v[k] === 'string' ? v[k] : '');
  const st = v.stats ?? {};
  let out = `skill:   ${s('skill')}\ntrust:   ${s('trust')}\nverdict: ${s('verdict').toUpperCase()}\npolicy:  ${s('policy').toUpperCase()}  (${s('reason')})\nfiles:   ${JSON.stringify(st.files ?? null)} (${JSON.stringify(st.bytes ?? null)} bytes), ${JSON.stringify(st.rules ?? null)} rules\n`;
  if (v.quality && typeof v.quality.summary === 'string') out += `quality: ${v.quality.summary}\n`;
  const findings = Array.isArray(v.findings) ? v.findings : [];
  if (!findings.length) out += '\nNo findings.\n';
  for (const f of findings) {
    const fs = (k) => (typeof f[k] === 'string' ? f[k] : '');
    const place = typeof f.line === 'number' && f.line > 0 ? `${fs('file')}:${f.line}` : fs('file');
    out += `\n[${fs('severity').toUpperCase()}] ${fs('rule_id')}  ${place}\n    ${fs('evidence')}\n    ${fs('description')}\n`;
    for (const r of Array.isArray(f.related) ? f.related : []) {
      const rs = (k) => (typeof r[k] === 'string' ? r[k] : '');
      out += `    ${rs('role')} ${rs('file')}:${JSON.stringify(r.line ?? null)}  ${rs('evidence')}\n`;
    }
  }
  return out;
}

async function run({ global: g, command, options: o, positional }) {
  if (g['--component'] !== undefined) {
    throw invalidInput('component', `the Node host runs only the component transpiled at build time (hosts/node/dist/); to use ${g['--component']}, rebuild with SKILL_RECOMMENDER_COMPONENT=${g['--component']} npm run build`);
  }
  const lang = g['--lang'];   // undefined: the state's lang, else the locale's (the component decides)
  const timezone = g['--timezone'];
  const now = g['--now'];
  const stateless = ['scan', 'scan-bundle', 'validate', 'normalize', 'render'].includes(command);
  // Stateless commands need no state dir (an in-memory host is never used for them).
  const host = await openHost({
    stateDir: g['--state-dir'],
    legacyDir: g['--legacy-data-dir'],
    lang, now, timezone, keepNumbers: true,
    ...(stateless ? { store: { location: () => null, begin: () => { throw new Error('no state'); } } } : {}),
  });
  const limit = host.component.limits.maxInputBytes;   // the host's own input limit (the defaults here)
  const discovery = () => ({ skillsDirs: o['--skills-dir'] ?? [], discover: !o['--no-discover'] });
  // --platform (default: this machine's), --capabilities a,b (repeatable, like clap's value delimiter).
  const agent = () => ({ platform: o['--platform'], capabilities: o['--capabilities'] });
  const registry = () => ({ from: o['--from'], baseUrl: o['--base-url'] });
  const skill = () => ({
    skillId: o['--skill-id'],
    name: o['--skill-name'],
    url: o['--skill-url'],
    categories: (o['--categories'] ?? []).flatMap((c) => c.split(',')),
    mode: o['--mode'],
  });
  switch (command) {
    case 'scan': return host.scan({ candidates: readInput('candidates', o['--candidates'], limit), mode: o['--mode'], ...registry() });
    case 'scan-bundle': return host.scanBundle({ path: positional, trust: o['--trust'], source: o['--source'], force: !!o['--force'] });
    case 'validate': return host.validate({ path: positional, strict: !!o['--strict'], quality: !!o['--quality'] });
    case 'render': return host.render({ mode: o['--mode'], input: readInput('input', o['--input'], limit) });
    case 'normalize': {
      const out = await host.normalize({ json: readInput('input', positional, limit), from: o['--from'] ?? 'auto', baseUrl: o['--base-url'] });
      for (const w of out.warnings ?? []) {
        process.stderr.write(`skill-recommender: item ${JSON.stringify(w.index ?? null)}: ${w.field ?? ''}: ${w.message ?? ''}\n`);
      }
      return out;
    }
    default: break;
  }
  let out;
  switch (command) {
    case 'status': out = await host.status({ verbose: !!o['--verbose'] }); break;
    case 'prompt-daily': out = await host.promptDaily({ source: o['--source'] }); break;
    case 'enable-daily': out = await host.enableDaily({ schedulerAvailable: !!o['--scheduler-available'] }); break;
    case 'confirm-daily-enabled': out = await host.confirmDailyEnabled(); break;
    case 'fail-daily-schedule': out = await host.failDailySchedule({ reason: o['--reason'] }); break;
    case 'disable-daily': out = await host.disableDaily(); break;
    case 'unsupported-daily': out = await host.unsupportedDaily(); break;
    case 'daily-gate': out = await host.dailyGate({ searchCapability: !o['--no-search-capability'] }); break;
    case 'failure-notice': out = await host.failureNotice({ action: o['--dismiss'] ? 'dismiss' : 'restore' }); break;
    case 'update-check': out = await host.updateCheck({ remoteVersion: o['--remote-version'], localVersion: o['--local-version'] }); break;
    case 'update-notice': out = await host.updateNotice({ response: o['--accept'] ? 'accept' : 'dismiss' }); break;
    case 'shown': case 'accept': case 'reject': out = await host.feedback({ action: command, skill: skill() }); break;
    case 'filter': {
      const candidates = readInput('candidates', o['--candidates'], limit);
      out = await host.filter({ candidates, mode: o['--mode'], ...agent(), ...registry(), ...discovery() });
      for (const w of out.discovery.warnings) process.stderr.write(`skill-recommender: ${w}\n`);
      break;
    }
    case 'rank': {
      const candidates = readInput('candidates', o['--candidates'], limit);
      out = await host.rank({ candidates, mode: o['--mode'], task: o['--task'], signals: o['--signal'] ?? [], ...agent(), ...registry(), ...discovery() });
      for (const w of out.discovery.warnings) process.stderr.write(`skill-recommender: ${w}\n`);
      break;
    }
    case 'recommend': {
      let candidates;
      if (o['--candidates'] !== undefined) {
        candidates = readInput('candidates', o['--candidates'], limit);
      } else if (o['--sample']) {
        // The demonstration data carries "demo": true: the card says so and nothing is recorded.
        candidates = readFileSync(new URL('../dist/sample_candidates.json', import.meta.url), 'utf8');
      } else {
        throw invalidInput('candidates', NO_CANDIDATES);
      }
      out = await host.recommend({
        candidates, mode: o['--mode'], task: o['--task'], signals: o['--signal'] ?? [],
        dryRun: !!o['--dry-run'], remoteVersion: o['--remote-version'], localVersion: o['--local-version'],
        otherQuestion: !!o['--other-question'], ...agent(), ...registry(), ...discovery(),
      });
      for (const w of out.discovery.warnings) process.stderr.write(`skill-recommender: ${w}\n`);
      break;
    }
    default: throw new UsageError(`unrecognized subcommand '${command}'`);
  }
  for (const m of host.store.migrations ?? []) {
    process.stderr.write(`skill-recommender: migrated legacy ${m.from} to ${m.to}\n`);
  }
  return out;
}

async function main() {
  let parsed;
  const argv = process.argv.slice(2);
  try {
    parsed = parse(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      // The same {"error": ...} object as every other failure, on stdout; the parser's text on stderr.
      print({ error: { code: 'usage', message: e.message.split('\n')[0], exit_code: 2 } }, argv.includes('--compact'));
      process.stderr.write(`error: ${e.message}\n\nUsage: skill-recommender [OPTIONS] <COMMAND>\n\nFor more information, try '--help'.\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.help) { process.stdout.write(HELP); return 0; }
  if (parsed.version) { process.stdout.write(`skill-recommender ${VERSION}\n`); return 0; }
  const compact = !!parsed.global['--compact'];
  try {
    const value = await run(parsed);
    if (parsed.command === 'scan-bundle' && parsed.options['--text']) {
      process.stdout.write(reportText(value));
    } else if ((parsed.command === 'recommend' || parsed.command === 'render') && !parsed.options['--json']) {
      // The card text; a silent result prints nothing and says why on stderr.
      if (typeof value.card === 'string') {
        process.stdout.write(value.card);
      } else if (value.reason === 'no_usable_candidates') {
        // Nothing left: say why on stdout too (one line per reason), not only on stderr.
        process.stdout.write(`${value.message}\n`);
      } else {
        process.stderr.write(`skill-recommender: nothing to show (${typeof value.reason === 'string' ? value.reason : 'silent'}): ${typeof value.message === 'string' ? value.message : ''}\n`);
      }
    } else {
      print(value, compact);
    }
    return exitCodeOf(value);
  } catch (e) {
    const err = e instanceof HostError ? e
      : new HostError('component_trap', 1, `the component trapped: ${e?.message ?? e}`, { guest_stderr: '' });
    print(err.toJSON(), compact);
    process.stderr.write(`skill-recommender: error: ${err.message}\n`);
    return err.exitCode;
  }
}

// A reader that closed the pipe early (`| head`) is not an error.
process.stdout.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
main().then((code) => { process.exitCode = code; });
