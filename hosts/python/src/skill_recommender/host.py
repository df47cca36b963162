"""The library API: :class:`Host` runs the skill-recommender component, one method per command, each
returning the command's parsed JSON (a ``dict``) or raising :class:`SkillRecommenderError`."""

from __future__ import annotations

import datetime as _dt
import json
import os
import sys
import threading
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import discover as discover_mod
from .bundle import Bundle, BundleError, BundleLimits, read_bundle
from .commands import looks_up_for
from .errors import InvalidInput, SkillRecommenderError
from .runtime import Limits, Runtime, record
from .store import FileStateStore, NullStateStore, StateStore, home_dir, resolve_state_dir

_RUNTIMES: Dict[Tuple[Any, ...], Runtime] = {}
_RUNTIMES_LOCK = threading.Lock()

TRUSTED_REPOS = ("openai/skills", "anthropics/skills", "huggingface/skills", "nvidia/skills")
TRUST_LEVELS = ("builtin", "trusted", "community", "agent-created")
REGISTRIES = ("auto", "clawhub", "skillssh", "smithery", "glama", "skillhub", "github", "mcpmarket", "candidates")


def get_runtime(
    component: Optional[bytes] = None,
    cache_dir: Optional[str] = None,
    no_cache: bool = False,
    limits: Optional[Limits] = None,
) -> Runtime:
    """The process-wide runtime for this component and cache setting: compiled (or loaded) once."""
    import hashlib

    key = (
        hashlib.sha256(component).hexdigest() if component is not None else None,
        cache_dir,
        no_cache,
        id(limits) if limits is not None else None,
    )
    with _RUNTIMES_LOCK:
        rt = _RUNTIMES.get(key)
        if rt is None:
            rt = Runtime(component=component, cache_dir=cache_dir, no_cache=no_cache, limits=limits)
            _RUNTIMES[key] = rt
        return rt


def system_now() -> str:
    """The system clock as RFC 3339 UTC."""
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def system_timezone() -> Optional[str]:
    """The system's IANA zone from /etc/localtime or /etc/timezone (like the Rust host), else None."""
    try:
        real = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in real:
            return real.split("zoneinfo/", 1)[1]
    except OSError:
        pass
    try:
        with open("/etc/timezone", encoding="utf-8") as f:
            z = f.readline().strip()
            if z:
                return z
    except OSError:
        pass
    return None


def canonical_url(url: str) -> Optional[str]:
    """The component's URL canonicalization (``guest/src/filter.rs``), enough to derive trust."""
    url = url.strip()
    for p in ("https://", "http://", "HTTPS://", "HTTP://"):
        if url.startswith(p):
            rest = url[len(p):]
            break
    else:
        return None
    for sep in "?#":
        rest = rest.split(sep, 1)[0]
    host, _, path = rest.partition("/")
    host = "".join(c.lower() if "A" <= c <= "Z" else c for c in host)
    if host.startswith("www."):
        host = host[4:]
    if not host:
        return None
    code_host = host in ("github.com", "gitlab.com", "codeberg.org")
    segs = [s.lower() if code_host else s for s in path.split("/") if s]
    if code_host:
        if len(segs) > 1 and segs[1].endswith(".git"):
            segs[1] = segs[1][:-4]
        if len(segs) > 3 and segs[2] in ("tree", "blob"):
            segs = segs[:2] + segs[4:]
        elif len(segs) > 2 and segs[2] in ("tree", "blob"):
            segs = segs[:2]
    return "/".join([host] + segs)


def trust_of_source(url: str) -> str:
    """``trusted`` only for an exact official GitHub repository, else ``community``."""
    canon = canonical_url(url)
    if canon is None:
        return "community"
    parts = canon.split("/")
    if len(parts) >= 3 and parts[0] == "github.com" and f"{parts[1]}/{parts[2]}" in TRUSTED_REPOS:
        return "trusted"
    return "community"


def detect_legacy_dir() -> Optional[str]:
    """The skill's own ``data/`` directory, if this host sits inside an installed skill (a SKILL.md
    naming skill-recommender in one of the four folders above the console script or this package):
    where the original kept its state. Mirrors the Rust CLI, which looks above its binary."""
    import sys

    starts = [os.path.realpath(os.path.abspath(__file__))]
    if sys.argv and sys.argv[0] and os.path.isfile(sys.argv[0]):
        starts.insert(0, os.path.realpath(sys.argv[0]))
    for start in starts:
        d = start
        for _ in range(4):
            d = os.path.dirname(d)
            try:
                with open(os.path.join(d, "SKILL.md"), encoding="utf-8") as f:
                    head = [next(f, "") for _ in range(20)]
            except (OSError, UnicodeDecodeError):
                continue
            if any(l.strip() == "name: skill-recommender" for l in head) and os.path.isdir(os.path.join(d, "data")):
                return os.path.join(d, "data")
    return None


def locale_lang(env: Any) -> str:
    """The language the user's locale asks for (the Rust host's ``locale_lang``): the first non-empty
    of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; ``zh*`` is ``zh``, any other locale ``en``, none ``zh``."""
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        v = (env.get(key) or "").strip()
        if v:
            return "zh" if v.lower().startswith("zh") else "en"
    return "zh"


def with_registry(text: str, registry: Optional[str], base_url: Optional[str] = None) -> str:
    """Candidates text for a named registry: ``{"from": registry, "response": <text>}`` (the component
    reads the registry's own JSON); ``None``/``auto`` leaves the text as it is (detected by the component)."""
    if registry in (None, "auto"):
        return text
    if registry not in REGISTRIES:
        raise InvalidInput("from", f"{registry!r} is not one of {', '.join(REGISTRIES)}")
    base = f',"base_url":{json.dumps(base_url, ensure_ascii=False)}' if base_url else ""
    return f'{{"from":{json.dumps(registry)}{base},"response":{text}}}'


def _json_text(value: Any, field: str) -> str:
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput(field, "not UTF-8 text") from None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _bundle_bytes(b: Bundle) -> int:
    """A bundle's input size, as the Rust host counts it: its files' text contents in UTF-8 bytes."""
    return sum(len(f.content.encode("utf-8")) for f in b.files if f.content)


def _wit_bundle(b: Bundle):
    return record(
        name=b.name,
        files=[
            record(
                path=f.path,
                size=f.size,
                kind=f.kind,
                content=f.content,
                executable=f.executable,
                magic=f.magic,
                link_target=f.link_target,
                link_escapes=f.link_escapes,
            )
            for f in b.files
        ],
        notes=[record(path=n.path, code=n.code, message=n.message) for n in b.notes],
    )


class Host:
    """Run the skill-recommender component with a file state store.

    >>> h = Host(state_dir="/tmp/sr-state", now="2026-11-29T02:00:00Z", timezone="Asia/Shanghai")
    >>> h.daily_gate()["reason"]
    'daily_not_enabled'

    ``state_dir`` defaults to the Rust host's resolution order; ``now``/``timezone`` default to the system
    clock and zone (pass them for replays and tests); ``lang`` is ``zh`` or ``en``, chosen for every call
    (default ``None``: the state's ``lang``, else the locale's, see :func:`locale_lang`). The compiled component
    is shared by every Host in the process and cached on disk (``cache_dir``, else
    ``$SKILL_RECOMMENDER_CACHE_DIR``, else ``~/.cache/skill-recommender``; ``no_cache=True`` to disable).
    """

    def __init__(
        self,
        state_dir: "Optional[str | os.PathLike[str]]" = None,
        *,
        now: Optional[str] = None,
        timezone: Optional[str] = None,
        lang: Optional[str] = None,
        legacy_data_dir: "Optional[str | os.PathLike[str]]" = None,
        cache_dir: "Optional[str | os.PathLike[str]]" = None,
        no_cache: bool = False,
        component: Optional[bytes] = None,
        limits: Optional[Limits] = None,
        store: Optional[StateStore] = None,
    ):
        if lang not in (None, "zh", "en"):
            raise ValueError("lang must be 'zh', 'en' or None")
        self.state_dir = os.fspath(state_dir) if state_dir is not None else None
        self.now = now
        self.timezone = timezone
        self.lang = lang
        self.legacy_data_dir = os.fspath(legacy_data_dir) if legacy_data_dir is not None else None
        self.runtime = get_runtime(
            component, os.fspath(cache_dir) if cache_dir is not None else None, no_cache, limits
        )
        self._store = store
        self.migrations: List[Tuple[str, str]] = []

    # -- plumbing ---------------------------------------------------------------------------------

    def _ctx(self):
        return record(
            now=self.now if self.now is not None else system_now(),
            host_timezone=self.timezone if self.timezone is not None else system_timezone(),
            lang=self.lang if self.lang is not None else locale_lang(os.environ),
            lang_explicit=self.lang is not None,
        )

    def store(self) -> Tuple[StateStore, Optional[str], Optional[str]]:
        """The state store, its directory and where the directory came from."""
        if self._store is not None:
            return self._store, None, None
        try:
            d, source = resolve_state_dir(self.state_dir, os.environ.get, home_dir())
        except ValueError as e:
            raise InvalidInput("state-dir", str(e)) from None
        legacy = self.legacy_data_dir if self.legacy_data_dir is not None else detect_legacy_dir()
        return (
            FileStateStore(d, legacy_dir=legacy, max_document_bytes=self.runtime.limits.max_document_bytes),
            d,
            source,
        )

    def _run(
        self, interface: str, func: str, args: List[Any], stateful: bool = True, input_bytes: int = 0
    ) -> Dict[str, Any]:
        if stateful:
            st, _, _ = self.store()
        else:
            st = NullStateStore()
        text = self.runtime.call(st, interface, func, args, input_bytes)
        if isinstance(st, FileStateStore):
            self.migrations.extend(st.migrations)
        return self._parse(text)

    @staticmethod
    def _parse(text: str) -> Dict[str, Any]:
        try:
            return json.loads(text)
        except ValueError as e:
            from .errors import ComponentLoad

            raise ComponentLoad(f"the component returned invalid JSON: {e}") from None

    def _check_input(self, field: str, text: str) -> int:
        """The input's size in UTF-8 bytes (what the call's deadline grows with); over the limit: an error."""
        size = len(text.encode("utf-8"))
        limit = self.runtime.limits.max_input_bytes
        if size > limit:
            raise InvalidInput(field, f"{size} bytes, over the {limit}-byte input limit")
        return size

    # -- lifecycle --------------------------------------------------------------------------------

    def status(self, verbose: bool = False) -> Dict[str, Any]:
        """State summary plus ``state_dir`` and ``paths{state, history}``; ``verbose`` adds the host's
        internals: ``paths.cache`` and ``host{state_dir_source, component_imports}``."""
        st, d, source = self.store()
        out = self._parse(self.runtime.call(st, "lifecycle", "status", [self._ctx()]))
        if isinstance(st, FileStateStore):
            self.migrations.extend(st.migrations)
        out["state_dir"] = d
        out["paths"] = {
            "state": st.location("state"),
            "history": st.location("history"),
        }
        if verbose:
            out["paths"]["cache"] = dict(self.runtime.cache)
            out["host"] = {
                "state_dir_source": source,
                "component_imports": list(self.runtime.imports),
            }
        return out

    def prompt_daily(self, source: str = "post_install") -> Dict[str, Any]:
        """``source``: ``post_install`` or ``manual``."""
        s = {"post_install": "post-install", "post-install": "post-install", "manual": "manual"}.get(source)
        if s is None:
            raise InvalidInput("source", f"{source!r} is not post_install or manual")
        return self._run("lifecycle", "prompt-daily", [self._ctx(), s])

    def enable_daily(self, scheduler_available: bool = False) -> Dict[str, Any]:
        return self._run("lifecycle", "enable-daily", [self._ctx(), bool(scheduler_available)])

    def confirm_daily_enabled(self) -> Dict[str, Any]:
        return self._run("lifecycle", "confirm-daily-enabled", [self._ctx()])

    def fail_daily_schedule(self, reason: str) -> Dict[str, Any]:
        return self._run("lifecycle", "fail-daily-schedule", [self._ctx(), reason])

    def disable_daily(self) -> Dict[str, Any]:
        return self._run("lifecycle", "disable-daily", [self._ctx()])

    def unsupported_daily(self) -> Dict[str, Any]:
        return self._run("lifecycle", "unsupported-daily", [self._ctx()])

    def daily_gate(self, search_capability: bool = True) -> Dict[str, Any]:
        return self._run("lifecycle", "daily-gate", [self._ctx(), bool(search_capability)])

    def failure_notice(self, action: str) -> Dict[str, Any]:
        """``action``: ``dismiss`` or ``restore``."""
        if action not in ("dismiss", "restore"):
            raise InvalidInput("action", f"{action!r} is not dismiss or restore")
        return self._run("lifecycle", "failure-notice", [self._ctx(), action])

    def update_check(self, remote_version: str, local_version: Optional[str] = None) -> Dict[str, Any]:
        return self._run("lifecycle", "update-check", [self._ctx(), local_version, remote_version])

    def update_notice(self, response: str) -> Dict[str, Any]:
        """``response``: ``accept`` or ``dismiss``."""
        if response not in ("accept", "dismiss"):
            raise InvalidInput("response", f"{response!r} is not accept or dismiss")
        return self._run("lifecycle", "update-notice", [self._ctx(), response])

    def feedback(
        self,
        action: str,
        skill_id: str,
        name: Optional[str] = None,
        url: Optional[str] = None,
        categories: Iterable[str] = (),
        mode: Optional[str] = None,
    ) -> Dict[str, Any]:
        """``action``: ``shown``, ``accept`` or ``reject``. ``accept``/``reject`` take the id on the card (or
        the name it showed); ``mode`` (``manual``/``daily``) says which flow showed it (``shown``)."""
        if action not in ("shown", "accept", "reject"):
            raise InvalidInput("action", f"{action!r} is not shown, accept or reject")
        if mode not in (None, "manual", "daily"):
            raise InvalidInput("mode", f"{mode!r} is not manual or daily")
        skill = record(skill_id=skill_id, name=name, url=url, categories=list(categories), mode=mode)
        return self._run("lifecycle", "feedback", [self._ctx(), action, skill])

    def shown(self, skill_id: str, **kw: Any) -> Dict[str, Any]:
        return self.feedback("shown", skill_id, **kw)

    def accept(self, skill_id: str, **kw: Any) -> Dict[str, Any]:
        return self.feedback("accept", skill_id, **kw)

    def reject(self, skill_id: str, **kw: Any) -> Dict[str, Any]:
        return self.feedback("reject", skill_id, **kw)

    # -- candidates -------------------------------------------------------------------------------

    def normalize(self, registry_json: Any, registry: str = "auto", base_url: Optional[str] = None) -> Dict[str, Any]:
        """A registry's own JSON (text, bytes or parsed) → ``{registry, candidates, skipped, ...}``."""
        if registry not in REGISTRIES:
            raise InvalidInput("from", f"{registry!r} is not one of {', '.join(REGISTRIES)}")
        text = _json_text(registry_json, "input")
        size = self._check_input("input", text)
        return self._run("filter", "normalize", [registry, text, base_url], stateful=False, input_bytes=size)

    def filter(
        self,
        candidates: Any,
        mode: str = "manual",
        skills_dirs: Sequence["str | os.PathLike[str]"] = (),
        discover: bool = True,
        cwd: Optional[str] = None,
        registry: Optional[str] = None,
        base_url: Optional[str] = None,
        platform: Optional[str] = None,
        capabilities: Optional[Iterable[str]] = None,
    ) -> Dict[str, Any]:
        """Filter candidates (text, bytes or parsed; or a registry's own response, detected, or named
        by ``registry``) against state, history and installed skills. ``platform`` (default: this
        machine's) drops skills for other platforms."""
        if mode not in ("manual", "daily"):
            raise InvalidInput("mode", f"{mode!r} is not manual or daily")
        text = with_registry(_json_text(candidates, "candidates"), registry, base_url)
        size = self._check_input("candidates", text)
        st, _, _ = self.store()
        found = self.discover_installed(skills_dirs, discover, cwd)
        installed = [
            record(name=s.name, dir=s.dir, source=s.source, source_url=s.source_url) for s in found.skills
        ]
        agent = _agent_env(platform, capabilities)
        out = self._parse(self.runtime.call(st, "filter", "filter", [self._ctx(), mode, text, installed, agent], size))
        if isinstance(st, FileStateStore):
            self.migrations.extend(st.migrations)
        out["discovery"] = {
            "scanned": found.scanned,
            "installed_skills": len(found.skills),
            "warnings": found.warnings,
        }
        return out

    def discover_installed(
        self, skills_dirs: Sequence["str | os.PathLike[str]"] = (), discover: bool = True, cwd: Optional[str] = None
    ) -> discover_mod.Discovery:
        dirs: List[Tuple[str, str]] = []
        if discover:
            dirs = discover_mod.default_dirs(cwd or os.getcwd(), home_dir())
        dirs.extend((os.fspath(d), "custom") for d in skills_dirs)
        return discover_mod.discover(dirs, self._frontmatter)

    def _frontmatter(self, yaml: str) -> Dict[str, Any]:
        """Parse frontmatter YAML with the component's own budgeted parser (its ``validate`` export)."""
        doc = "---\n" + yaml + "---\n"
        b = Bundle(name="", files=[])
        from .bundle import _entry

        b.files.append(_entry("SKILL.md", doc.encode("utf-8"), False))
        # strict: no lenient retry of `key: value: with colon`, like the Rust host's discovery parser
        out = self._run("scan", "validate", [_wit_bundle(b), True, False], stateful=False, input_bytes=_bundle_bytes(b))
        meta = out.get("metadata")
        if isinstance(meta, dict):
            if not meta and "{" not in yaml:
                raise ValueError("frontmatter is not a YAML mapping")  # empty YAML is null, not a map
            return meta
        prefix = "the frontmatter is not valid YAML: "
        for e in out.get("errors") or []:
            msg = e.get("message", "")
            if e.get("code") == "frontmatter_not_mapping":
                raise ValueError("frontmatter is not a YAML mapping")
            if msg.startswith(prefix):
                raise ValueError("frontmatter is not valid YAML: " + msg[len(prefix):])
        raise ValueError("frontmatter is not a YAML mapping")

    # -- ranking and recommendation ---------------------------------------------------------------

    def _installed(self, skills_dirs, discover, cwd):
        found = self.discover_installed(skills_dirs, discover, cwd)
        installed = [
            record(name=s.name, dir=s.dir, source=s.source, source_url=s.source_url) for s in found.skills
        ]
        report = {"scanned": found.scanned, "installed_skills": len(found.skills), "warnings": found.warnings}
        return installed, report

    def _stateful_with_discovery(
        self,
        func_iface: str,
        func: str,
        args_before,
        args_after,
        skills_dirs,
        discover,
        cwd,
        input_bytes: int,
        lookup_commands: bool = False,
    ):
        st, _, _ = self.store()
        installed, report = self._installed(skills_dirs, discover, cwd)
        out = self._parse(
            self.runtime.call(
                st, func_iface, func, args_before + [installed] + args_after, input_bytes, lookup_commands
            )
        )
        if isinstance(st, FileStateStore):
            self.migrations.extend(st.migrations)
        out["discovery"] = report
        return out

    def rank(
        self,
        candidates: Any,
        mode: str = "manual",
        task: Optional[str] = None,
        signals: Iterable[str] = (),
        skills_dirs: Sequence["str | os.PathLike[str]"] = (),
        discover: bool = True,
        cwd: Optional[str] = None,
        registry: Optional[str] = None,
        base_url: Optional[str] = None,
        platform: Optional[str] = None,
        capabilities: Optional[Iterable[str]] = None,
    ) -> Dict[str, Any]:
        """Rank (filtered) candidates with a per-factor breakdown and reasons. Reads state, never writes.
        ``platform`` (default: this machine's) and ``capabilities`` (default: unknown) set ``fit``."""
        if mode not in ("manual", "daily"):
            raise InvalidInput("mode", f"{mode!r} is not manual or daily")
        text = with_registry(_json_text(candidates, "candidates"), registry, base_url)
        size = self._check_input("candidates", text)
        agent = _agent_env(platform, capabilities)
        request = record(task=task, signals=list(signals), agent=agent)
        return self._stateful_with_discovery(
            "rank", "rank", [self._ctx(), mode, text], [request], skills_dirs, discover, cwd, size,
            looks_up_for(agent.platform),
        )

    def recommend(
        self,
        candidates: Any,
        mode: str = "manual",
        task: Optional[str] = None,
        signals: Iterable[str] = (),
        dry_run: bool = False,
        remote_version: Optional[str] = None,
        local_version: Optional[str] = None,
        other_question: bool = False,
        skills_dirs: Sequence["str | os.PathLike[str]"] = (),
        discover: bool = True,
        cwd: Optional[str] = None,
        registry: Optional[str] = None,
        base_url: Optional[str] = None,
        platform: Optional[str] = None,
        capabilities: Optional[Iterable[str]] = None,
    ) -> Dict[str, Any]:
        """The main job in one call: filter, scan, rank, pick, card; records ``shown`` unless dry_run.
        ``silent: true`` with a ``reason`` means show nothing (``no_usable_candidates``: ``message`` says
        why, per reason); otherwise ``card`` is the text to show. ``candidates`` may also be a registry's
        own response (detected, or named by ``registry``). ``platform`` (default: this machine's) and
        ``capabilities`` (default: unknown): the agent's."""
        if mode not in ("manual", "daily"):
            raise InvalidInput("mode", f"{mode!r} is not manual or daily")
        text = with_registry(_json_text(candidates, "candidates"), registry, base_url)
        size = self._check_input("candidates", text)
        agent = _agent_env(platform, capabilities)
        request = record(
            task=task,
            signals=list(signals),
            dry_run=bool(dry_run),
            remote_version=remote_version,
            local_version=local_version,
            other_question=bool(other_question),
            agent=agent,
        )
        return self._stateful_with_discovery(
            "recommend", "recommend", [self._ctx(), mode, text], [request], skills_dirs, discover, cwd, size,
            looks_up_for(agent.platform),
        )

    def render(self, result: Any, mode: str = "manual") -> Dict[str, Any]:
        """The card for a ``recommend`` result (or ``{"pick": {...}}``), in this Host's ``lang``."""
        if mode not in ("manual", "daily"):
            raise InvalidInput("mode", f"{mode!r} is not manual or daily")
        text = _json_text(result, "input")
        size = self._check_input("input", text)
        return self._run("render", "render", [self._ctx(), mode, text], stateful=False, input_bytes=size)

    # -- security ---------------------------------------------------------------------------------

    def scan(
        self, candidates: Any, mode: str = "manual", registry: Optional[str] = None, base_url: Optional[str] = None
    ) -> Dict[str, Any]:
        if mode not in ("manual", "daily"):
            raise InvalidInput("mode", f"{mode!r} is not manual or daily")
        text = with_registry(_json_text(candidates, "candidates"), registry, base_url)
        size = self._check_input("candidates", text)
        return self._run("scan", "scan-candidates", [mode, text], stateful=False, input_bytes=size)

    def read_bundle(self, path: "str | os.PathLike[str]") -> Bundle:
        try:
            return read_bundle(path, BundleLimits())
        except BundleError as e:
            raise InvalidInput("path", str(e)) from None

    def scan_bundle(
        self,
        path: "str | os.PathLike[str]",
        trust: Optional[str] = None,
        source: Optional[str] = None,
        force: bool = False,
    ) -> Dict[str, Any]:
        """Scan a skill folder, ``.zip``/``.skill`` archive or SKILL.md; the verdict and install policy."""
        if trust is not None and trust not in TRUST_LEVELS:
            raise InvalidInput("trust", f"{trust!r} is not one of {', '.join(TRUST_LEVELS)}")
        bundle = self.read_bundle(path)
        if trust is None:
            trust = trust_of_source(source) if source is not None else "community"
        size = self._check_bundle(bundle)
        return self._run("scan", "scan-bundle", [_wit_bundle(bundle), trust, bool(force)], stateful=False, input_bytes=size)

    def validate(self, path: "str | os.PathLike[str]", strict: bool = False, quality: bool = False) -> Dict[str, Any]:
        """Validate a skill's SKILL.md and layout; ``quality``: also assess how much of it is more than
        a prompt (``quality: {level, score, signals}``)."""
        bundle = self.read_bundle(path)
        size = self._check_bundle(bundle)
        return self._run(
            "scan", "validate", [_wit_bundle(bundle), bool(strict), bool(quality)], stateful=False, input_bytes=size
        )

    def _check_bundle(self, b: Bundle) -> int:
        """The bundle's input size (its file contents in UTF-8 bytes); over the input limit: an error."""
        size = _bundle_bytes(b)
        limit = self.runtime.limits.max_input_bytes
        if size > limit:
            raise InvalidInput("bundle", f"{size} bytes, over the {limit}-byte input limit")
        return size


def _agent_env(platform: Optional[str], capabilities: Optional[Iterable[str]]):
    """The agent's situation for the component (WIT agent-env): platform defaults to this machine's
    (``sys.platform``, read by the component's alias table); capabilities None = unknown."""
    caps = None
    if capabilities is not None:
        items = [capabilities] if isinstance(capabilities, str) else list(capabilities)
        caps = [c for item in items for c in str(item).split(",")]
    return record(platform=platform if platform is not None else sys.platform, capabilities=caps)


__all__ = ["Host", "SkillRecommenderError", "get_runtime", "trust_of_source"]
