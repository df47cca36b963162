// skill-recommender for Node: the component (transpiled by jco) behind a small async API.
//
//   import { openHost } from 'skill-recommender-node';
//   const host = await openHost({ stateDir: '/home/me/.skill-recommender', lang: 'en' });
//   const gate = await host.dailyGate();            // -> the component's JSON, as an object
//
// Every call is one guest call and one transaction on the state store; failures throw HostError
// ({code, exitCode, message, details}; `toJSON()` gives the CLI's error JSON).
import { readlinkSync, realpathSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callGuest, loadComponent, LIMITS, DEFAULT_DIST } from './component.js';
import { HostError, invalidInput } from './errors.js';
import { FileStateStore, MemoryStateStore, NullStateStore, resolveStateDir } from './store.js';
import { readBundle, BundleError } from './bundle.js';
import { defaultDirs, discover } from './discover.js';
import { looksUpFor } from './commands.js';

export { HostError } from './errors.js';
export { FileStateStore, MemoryStateStore, NullStateStore, resolveStateDir, atomicWrite } from './store.js';
export { readBundle } from './bundle.js';
export { LIMITS, DEADLINE_MS, DEADLINE_PER_MIB_MS, deadlineFor } from './component.js';

const REGISTRIES = ['auto', 'clawhub', 'skillssh', 'smithery', 'glama', 'skillhub', 'github', 'mcpmarket', 'candidates'];
const TRUSTS = ['builtin', 'trusted', 'community', 'agent-created'];
const OFFICIAL = ['openai/skills', 'anthropics/skills', 'huggingface/skills', 'NVIDIA/skills'];

/**
 * The system's IANA zone, found the way the Rust host's iana-time-zone crate finds it on Linux (the
 * /etc/localtime symlink's zoneinfo name, else /etc/timezone), so both hosts agree; else the runtime's.
 */
export function systemZone() {
  try {
    const target = readlinkSync('/etc/localtime');
    const at = target.indexOf('zoneinfo/');
    if (at >= 0 && target.length > at + 9) return target.slice(at + 9);
  } catch { /* not a symlink or absent */ }
  try {
    const z = readFileSync('/etc/timezone', 'utf8').trim();
    if (z) return z;
  } catch { /* absent */ }
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined; } catch { return undefined; }
}

/**
 * The skill's own `data/` directory, if this package sits inside an installed skill (a SKILL.md naming
 * skill-recommender in one of the four folders above bin/): where the original kept its state.
 */
export function detectLegacyDir(from = fileURLToPath(new URL('../bin/skill-recommender.js', import.meta.url))) {
  let p;
  try { p = realpathSync(from); } catch { return null; }
  let dir = dirname(p);
  for (let i = 0; i < 4; i++) {
    try {
      const skill = readFileSync(join(dir, 'SKILL.md'), 'utf8');
      const named = skill.split('\n').slice(0, 20).some((l) => l.trim() === 'name: skill-recommender');
      let hasData = false;
      try { hasData = realpathSync(join(dir, 'data')) && true; } catch { /* none */ }
      if (named && hasData) return join(dir, 'data');
    } catch { /* no SKILL.md here */ }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/**
 * The language the user's locale asks for (the Rust host's `locale_lang`): the first non-empty of
 * LC_ALL, LC_MESSAGES and LANG; `zh*` is zh, any other locale en, none at all zh.
 */
export function localeLang(env = process.env) {
  const locale = ['LC_ALL', 'LC_MESSAGES', 'LANG'].map((k) => env[k]).find((v) => v && v.trim());
  if (!locale) return 'zh';
  return locale.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/**
 * Candidates text for a named registry: `{"from": registry, "response": <text>}` (the component reads
 * the registry's own JSON; `auto`/undefined leaves the text as it is, detected by the component).
 */
export function withRegistry(text, from, baseUrl) {
  if (from === undefined || from === null || from === 'auto') return text;
  if (!REGISTRIES.includes(from)) throw invalidInput('from', `unknown registry ${JSON.stringify(from)}`);
  const base = baseUrl ? `,"base_url":${JSON.stringify(String(baseUrl))}` : '';
  return `{"from":${JSON.stringify(from)}${base},"response":${text}}`;
}

/** Trust derived from a source URL: `trusted` only for an exact official repository. */
export function trustOfSource(url) {
  const m = /^https?:\/\/(?:www\.)?github\.com\/([^/?#]+)\/([^/?#]+)/i.exec(String(url).trim());
  if (!m) return 'community';
  const repo = `${m[1]}/${m[2].replace(/\.git$/i, '')}`.toLowerCase();
  return OFFICIAL.some((o) => o.toLowerCase() === repo) ? 'trusted' : 'community';
}

export class Host {
  /**
   * @param {object} o
   * @param {object} o.store       a FileStateStore, MemoryStateStore or your own ({begin, location})
   * @param {string} [o.stateDir]  for `status`: where state lives
   * @param {string} [o.stateDirSource]
   * @param {'zh'|'en'} [o.lang]  chosen for every call; default: the state's `lang`, else the locale's
   * @param {string} [o.now]       RFC 3339 time for every call (default: the clock at each call)
   * @param {string} [o.timezone]  the host's IANA zone (default: the system's)
   */
  constructor({ store, stateDir = null, stateDirSource = null, lang, now, timezone, dist, limits, keepNumbers = false, env = process.env } = {}) {
    this.store = store;
    this.component = { dist: dist ?? DEFAULT_DIST, limits: { ...LIMITS, ...(limits ?? {}) }, keepNumbers };
    this.stateDir = stateDir;
    this.stateDirSource = stateDirSource;
    this.lang = lang ?? null;
    this.localeLang = localeLang(env);
    this.now = now;
    this.timezone = timezone;
  }

  ctx(o = {}) {
    return {
      now: o.now ?? this.now ?? new Date().toISOString(),
      hostTimezone: o.timezone ?? this.timezone ?? systemZone(),
      lang: o.lang ?? this.lang ?? this.localeLang,
      langExplicit: (o.lang ?? this.lang) != null,
    };
  }

  /** The input's size in UTF-8 bytes; over this host's input limit: invalid_input (exit 3). */
  #checkSize(field, text) { return checkSize(field, text, this.component.limits); }

  #life(fn, ...args) { return callGuest(this.store, { iface: 'lifecycle', fn, args }, this.component); }

  /** A call that reads no state; inputBytes (its input's size) sets the deadline. */
  #stateless(inputBytes, iface, fn, ...args) { return callGuest(new NullStateStore(), { iface, fn, args, inputBytes }, this.component); }

  /** The state summary; `verbose` adds the host's internals (`paths.cache`, `host`). */
  async status({ verbose = false, ...o } = {}) {
    const out = await this.#life('status', this.ctx(o));
    out.state_dir = this.stateDir;
    out.paths = {
      state: this.store.location('state'),
      history: this.store.location('history'),
    };
    if (verbose) {
      const { meta } = await loadComponent(this.component.dist, this.component.limits);
      out.paths.cache = { outcome: 'disabled', path: null };
      out.host = {
        state_dir_source: this.stateDirSource,
        component_imports: meta.imports,
      };
    }
    return out;
  }

  promptDaily({ source, ...o }) {
    const s = { post_install: 'post-install', 'post-install': 'post-install', manual: 'manual' }[source];
    if (!s) throw invalidInput('source', `${JSON.stringify(source)} is not post_install or manual`);
    return this.#life('promptDaily', this.ctx(o), s);
  }

  enableDaily({ schedulerAvailable = false, ...o } = {}) { return this.#life('enableDaily', this.ctx(o), !!schedulerAvailable); }

  confirmDailyEnabled(o = {}) { return this.#life('confirmDailyEnabled', this.ctx(o)); }

  failDailySchedule({ reason, ...o }) { return this.#life('failDailySchedule', this.ctx(o), String(reason)); }

  disableDaily(o = {}) { return this.#life('disableDaily', this.ctx(o)); }

  unsupportedDaily(o = {}) { return this.#life('unsupportedDaily', this.ctx(o)); }

  dailyGate({ searchCapability = true, ...o } = {}) { return this.#life('dailyGate', this.ctx(o), !!searchCapability); }

  failureNotice({ action, ...o }) { return this.#life('failureNotice', this.ctx(o), action); }

  updateCheck({ remoteVersion, localVersion, ...o }) {
    return this.#life('updateCheck', this.ctx(o), localVersion ?? undefined, String(remoteVersion));
  }

  updateNotice({ response, ...o }) { return this.#life('updateNotice', this.ctx(o), response); }

  /** action: shown | accept | reject; skill: {skillId, name?, url?, categories?, mode?: manual|daily (shown)} */
  feedback({ action, skill, ...o }) {
    const ref = {
      skillId: String(skill.skillId), name: skill.name ?? undefined, url: skill.url ?? undefined,
      categories: skill.categories ?? [], mode: skill.mode ?? undefined,
    };
    return this.#life('feedback', this.ctx(o), action, ref);
  }

  shown(skill, o = {}) { return this.feedback({ action: 'shown', skill, ...o }); }

  accept(skill, o = {}) { return this.feedback({ action: 'accept', skill, ...o }); }

  reject(skill, o = {}) { return this.feedback({ action: 'reject', skill, ...o }); }

  /** Registry JSON (a string) -> {registry, candidates, skipped, warnings, summary}. Reads no state. */
  normalize({ json, from = 'auto', baseUrl, ...o }) {
    if (!REGISTRIES.includes(from)) throw invalidInput('from', `unknown registry ${JSON.stringify(from)}`);
    const inputBytes = this.#checkSize('input', json);
    return this.#stateless(inputBytes, 'filter', 'normalize', from, json, baseUrl ?? undefined);
  }

  /**
   * Filter candidates (a JSON string) against state, history and installed skills.
   * discover: look in the usual skill folders (default true); skillsDirs: more folders; cwd/home for them.
   */
  async filter({ candidates, mode, from, baseUrl, platform, capabilities, ...o }) {
    candidates = withRegistry(candidates, from, baseUrl);
    const inputBytes = this.#checkSize('candidates', candidates);
    const { installed, discovery } = installedSkills(o);
    const agent = agentEnv(platform, capabilities);
    const out = await callGuest(this.store, { iface: 'filter', fn: 'filter', args: [this.ctx(o), mode, candidates, installed, agent], inputBytes }, this.component);
    out.discovery = discovery;
    return out;
  }

  /**
   * Rank candidates (a JSON string) with a per-factor breakdown. Reads state, never writes.
   * task: the user's request; signals: scenario hints; platform, capabilities: the agent's (platform
   * defaults to this machine's); discovery options as for filter.
   */
  async rank({ candidates, mode, task, signals = [], from, baseUrl, platform, capabilities, ...o }) {
    candidates = withRegistry(candidates, from, baseUrl);
    const inputBytes = this.#checkSize('candidates', candidates);
    const { installed, discovery } = installedSkills(o);
    const agent = agentEnv(platform, capabilities);
    const request = { task: task ?? undefined, signals, agent };
    const out = await callGuest(this.store, { iface: 'rank', fn: 'rank', args: [this.ctx(o), mode, candidates, installed, request], inputBytes, lookupCommands: looksUpFor(agent.platform) }, this.component);
    out.discovery = discovery;
    return out;
  }

  /**
   * The main job in one call: filter -> scan -> rank -> pick -> card; records `shown` for the pick
   * unless dryRun. Options: task, signals, dryRun, remoteVersion, localVersion, otherQuestion, platform,
   * capabilities, discovery.
   */
  async recommend({ candidates, mode, task, signals = [], dryRun = false, remoteVersion, localVersion, otherQuestion = false, from, baseUrl, platform, capabilities, ...o }) {
    candidates = withRegistry(candidates, from, baseUrl);
    const inputBytes = this.#checkSize('candidates', candidates);
    const { installed, discovery } = installedSkills(o);
    const agent = agentEnv(platform, capabilities);
    const request = {
      task: task ?? undefined, signals, dryRun: !!dryRun, remoteVersion: remoteVersion ?? undefined,
      localVersion: localVersion ?? undefined, otherQuestion: !!otherQuestion, agent,
    };
    const out = await callGuest(this.store, { iface: 'recommend', fn: 'recommend', args: [this.ctx(o), mode, candidates, installed, request], inputBytes, lookupCommands: looksUpFor(agent.platform) }, this.component);
    out.discovery = discovery;
    return out;
  }

  /** Render the card for a `recommend` result (a JSON string). Reads no state. */
  render({ mode, input, ...o }) {
    const inputBytes = this.#checkSize('input', input);
    return this.#stateless(inputBytes, 'render', 'render', this.ctx(o), mode, input);
  }

  /** Candidate risk. Reads no state. */
  scan({ candidates, mode, from, baseUrl }) {
    candidates = withRegistry(candidates, from, baseUrl);
    const inputBytes = this.#checkSize('candidates', candidates);
    return this.#stateless(inputBytes, 'scan', 'scanCandidates', mode, candidates);
  }

  /** Scan a skill folder or SKILL.md; trust defaults from `source`, else community. */
  scanBundle({ path, trust, source, force = false }) {
    const { bundle, bytes } = readBundleArg(path, this.component.limits);
    const t = trust ?? (source ? trustOfSource(source) : 'community');
    if (!TRUSTS.includes(t)) throw invalidInput('trust', `unknown trust ${JSON.stringify(t)}`);
    return this.#stateless(bytes, 'scan', 'scanBundle', bundle, t, !!force);
  }

  /** Validate a skill folder's or SKILL.md's frontmatter and layout; quality: also assess its quality. */
  validate({ path, strict = false, quality = false }) {
    const { bundle, bytes } = readBundleArg(path, this.component.limits);
    return this.#stateless(bytes, 'scan', 'validate', bundle, !!strict, !!quality);
  }
}

/**
 * The agent's situation for the component (WIT agent-env): platform defaults to this machine's
 * (`process.platform`, read by the component's alias table); capabilities: a list or a comma-separated
 * string, undefined = unknown.
 */
function agentEnv(platform, capabilities) {
  const caps = capabilities == null ? undefined
    : (Array.isArray(capabilities) ? capabilities : [capabilities]).flatMap((c) => String(c).split(','));
  return { platform: platform ?? process.platform, capabilities: caps };
}

/** Installed skills from the usual folders (unless discover: false) and skillsDirs, with the report. */
function installedSkills({ skillsDirs = [], discover: look = true, cwd = process.cwd(), home = process.env.HOME } = {}) {
  const dirs = look ? defaultDirs(cwd, home) : [];
  for (const p of skillsDirs) dirs.push({ path: p, label: 'custom' });
  const found = discover(dirs);
  return {
    installed: found.skills.map((s) => ({ name: s.name, dir: s.dir, source: s.source, sourceUrl: s.sourceUrl })),
    discovery: { scanned: found.scanned, installed_skills: found.skills.length, warnings: found.warnings },
  };
}

/**
 * The input's size in UTF-8 bytes (what the deadline is computed from); over the host's input limit
 * (`limits.maxInputBytes`, as host-harness `run_cow` checks `self.limits.max_input_bytes`): an error.
 */
function checkSize(field, text, limits) {
  const size = Buffer.byteLength(String(text), 'utf8');
  checkLimit(field, size, limits);
  return size;
}

/** Refuse an input over this host's `limits.maxInputBytes` (exit 3, naming the field and both sizes). */
function checkLimit(field, size, limits) {
  const max = limits.maxInputBytes;
  if (size > max) throw invalidInput(field, `${size} bytes, over the ${max}-byte input limit`);
}

function readBundleArg(path, limits) {
  let bundle;
  try {
    bundle = readBundle(path);
  } catch (e) {
    if (e instanceof BundleError) throw invalidInput('path', e.message);
    throw e;
  }
  const bytes = bundle.files.reduce((n, f) => n + (f.content ? Buffer.byteLength(f.content, 'utf8') : 0), 0);
  checkLimit('bundle', bytes, limits);
  return { bundle, bytes };
}

/**
 * Open a host on a state directory (resolved like the Rust CLI when `stateDir` is not given).
 * Options: stateDir, env, home, legacyDir (default: detected), lang, now, timezone, store.
 */
export async function openHost({ stateDir, env = process.env, home = env.HOME, legacyDir, store, ...rest } = {}) {
  const limits = { ...LIMITS, ...(rest.limits ?? {}) };
  await loadComponent(rest.dist ?? DEFAULT_DIST, limits);
  if (store) return new Host({ store, ...rest });
  let resolved;
  try {
    resolved = resolveStateDir(stateDir, env, home);
  } catch (e) {
    throw invalidInput('state-dir', e.message);
  }
  const fileStore = new FileStateStore(resolved.dir, {
    legacyDir: legacyDir === undefined ? detectLegacyDir() : legacyDir,
    maxDocumentBytes: limits.maxDocumentBytes,
  });
  return new Host({ store: fileStore, stateDir: resolved.dir, stateDirSource: resolved.source, ...rest });
}

