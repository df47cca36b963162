"""``skill-recommender``: the same commands, flags, JSON output and exit codes as the Rust CLI
(``host-harness/src/bin/skill-recommender/``), running the same component under wasmtime-py."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, List, Optional

from . import __version__
from .errors import InvalidInput, SkillRecommenderError

AFTER_HELP = """\
State lives outside the skill's install directory, first match wins:
  --state-dir DIR, $SKILL_RECOMMENDER_STATE_DIR, $HERMES_HOME/state/skill-recommender,
  ~/.hermes/state/skill-recommender (if ~/.hermes exists), ~/.skill-recommender
Files: state.json and history.json (the original skill-recommender's format).

Output: one JSON object on stdout. On failure: {"error": {"code", "message", "exit_code", ...}}
on stdout and a one-line message on stderr.

Exit codes:
  0  success
  1  internal error (the component trapped or could not be loaded)
  2  usage error (unknown command or flag)
  3  invalid input (a flag's value; the error names it)
  4  state error (corrupt, unreadable, oversized or locked state file; the file is left as it was)
  5  sandbox limit (time, instructions or memory)
  6  refused transition (not allowed from the current daily status; the error says what to do)
  7  partial: `normalize` skipped some items (the JSON lists them; the rest were normalized)
  8  blocked / invalid: `scan-bundle` policy is block, or `validate` found errors
  9  ask: `scan-bundle` policy is ask (confirm with the user before installing)
  10 nothing usable: every candidate was dropped or blocked (`recommend` says why on stdout)

This is the Python host (wasmtime-py) of the same component; the Rust CLI is the reference."""

S = argparse.SUPPRESS


def _globals() -> argparse.ArgumentParser:
    g = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    g.add_argument("--state-dir", metavar="DIR", default=S, help="State directory (default: see below).")
    g.add_argument("--now", metavar="RFC3339", default=S, help="The current time, RFC 3339 with an offset (default: the system clock).")
    g.add_argument("--timezone", metavar="ZONE", default=S, help="The host's IANA time zone (default: the system's zone).")
    g.add_argument("--lang", choices=["zh", "en"], default=S,
                   help="Language of user-facing text (default: the state's lang, else the locale: LC_ALL, LC_MESSAGES, LANG).")
    g.add_argument("--legacy-data-dir", metavar="DIR", default=S, help="Migrate a legacy in-repo data/ directory once.")
    g.add_argument("--cache-dir", metavar="DIR", default=S, help="Where the precompiled component is cached.")
    g.add_argument("--component", metavar="FILE", default=S, help="Run another build of the component (a .wasm component file).")
    g.add_argument("--no-cache", action="store_true", default=S, help="Compile the component in memory; write no cache.")
    g.add_argument("--compact", action="store_true", default=S, help="Print JSON on one line instead of pretty-printed.")
    return g


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        # The same {"error": ...} object as every other failure, on stdout (exit 2); clap's shape on stderr.
        compact = "--compact" in sys.argv[1:]
        _print(dumps({"error": {"code": "usage", "message": message.split("\n")[0], "exit_code": 2}}, compact) + "\n")
        sys.stderr.write(f"error: {message}\n\nUsage: {self.format_usage().strip()[7:]}\n\nFor more information, try '--help'.\n")
        sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    g = _globals()
    p = _Parser(
        prog="skill-recommender",
        description="Discover, vet and recommend agent skills: the deterministic half of the skill-recommender "
        "protocol, run in a WebAssembly sandbox with no file, network, environment or process access.",
        epilog=AFTER_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[g],
        allow_abbrev=False,
    )
    p.add_argument("-V", "--version", action="version", version=f"skill-recommender {__version__}")
    sub = p.add_subparsers(dest="command", metavar="<COMMAND>", parser_class=_Parser)
    sub.required = True

    def cmd(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=help, parents=[g], allow_abbrev=False)

    c = cmd("status", "Show the state summary: daily status, notices, counts, state dir and files. Never writes.")
    c.add_argument("--verbose", action="store_true", help="Also the host's internals (cache, component imports).")
    c = cmd("prompt-daily", "Record that the daily question was asked (unset -> prompted; otherwise unchanged).")
    c.add_argument("--source", required=True, choices=["post_install", "post-install", "manual"])
    c = cmd("enable-daily", "The user agreed to daily recommendations: -> pending_schedule.")
    c.add_argument("--scheduler-available", action="store_true")
    cmd("confirm-daily-enabled", "The automation was created: pending_schedule -> enabled.")
    c = cmd("fail-daily-schedule", "Creating the automation failed: pending_schedule -> prompted.")
    c.add_argument("--reason", required=True)
    cmd("disable-daily", "The user turned daily recommendations off: any -> disabled.")
    cmd("unsupported-daily", "The agent has no scheduler: any but enabled -> unsupported.")
    c = cmd("daily-gate", "First step of the daily automation: may it run now?")
    c.add_argument("--no-search-capability", action="store_true")
    c = cmd("failure-notice", "Dismiss or restore the daily failure notice.")
    m = c.add_mutually_exclusive_group(required=True)
    m.add_argument("--dismiss", action="store_true")
    m.add_argument("--restore", action="store_true")
    c = cmd("update-check", "Should the user be asked to update?")
    c.add_argument("--local-version", metavar="SEMVER")
    c.add_argument("--remote-version", metavar="SEMVER", required=True)
    c = cmd("update-notice", "Record the user's answer to the update question.")
    m = c.add_mutually_exclusive_group(required=True)
    m.add_argument("--accept", action="store_true")
    m.add_argument("--dismiss", action="store_true")
    for name, h in (
        ("shown", "Record that a skill was shown to the user."),
        ("accept", "Record that the user accepted (installed) a skill."),
        ("reject", "Record that the user declined a skill."),
    ):
        c = cmd(name, h)
        c.add_argument("--skill-id", metavar="ID", required=True)
        c.add_argument("--skill-name", metavar="NAME")
        c.add_argument("--skill-url", metavar="URL")
        c.add_argument("--categories", metavar="A,B", action="append", default=[])
        if name == "shown":
            c.add_argument("--mode", choices=["manual", "daily"], default=None)
    c = cmd("normalize", "Turn a registry's own JSON into {\"candidates\": [...]}. Exit 7 when items were skipped.")
    c.add_argument("--from", dest="registry", default="auto",
                   choices=["auto", "clawhub", "skillssh", "smithery", "glama", "skillhub", "github", "mcpmarket", "candidates"])
    c.add_argument("--base-url", metavar="URL")
    c.add_argument("input", metavar="FILE|-")
    def agent_args(c: argparse.ArgumentParser) -> None:
        c.add_argument("--platform", metavar="OS", help="The agent's OS: linux, macos or windows (default: this machine's).")
        c.add_argument("--capabilities", metavar="LIST", action="append", default=None,
                       help="The agent's capabilities, comma-separated (terminal,browser,web_search,...).")
    def from_args(c: argparse.ArgumentParser) -> None:
        c.add_argument("--from", dest="registry", default=None,
                       choices=["auto", "clawhub", "skillssh", "smithery", "glama", "skillhub", "github", "mcpmarket", "candidates"])
        c.add_argument("--base-url", metavar="URL")

    c = cmd("filter", "Filter candidates against the state, the history and the installed skills. Never writes.")
    c.add_argument("--candidates", metavar="FILE|-", required=True)
    from_args(c)
    c.add_argument("--mode", choices=["manual", "daily"], required=True)
    c.add_argument("--skills-dir", metavar="DIR", action="append", default=[])
    c.add_argument("--no-discover", action="store_true")
    agent_args(c)
    c = cmd("scan", "Assess candidates' risk.")
    c.add_argument("--candidates", metavar="FILE|-", required=True)
    from_args(c)
    c.add_argument("--mode", choices=["manual", "daily"], required=True)
    c = cmd("scan-bundle", "Scan a skill folder, .zip/.skill archive or SKILL.md. Exit 0 allow, 9 ask, 8 block.")
    c.add_argument("path")
    c.add_argument("--trust", choices=["builtin", "trusted", "community", "agent-created"])
    c.add_argument("--source", metavar="URL")
    c.add_argument("--force", action="store_true")
    c.add_argument("--text", action="store_true")
    def rank_args(c: argparse.ArgumentParser) -> None:
        c.add_argument("--task", metavar="TEXT")
        c.add_argument("--signal", dest="signals", metavar="TEXT", action="append", default=[])

    def discovery_args(c: argparse.ArgumentParser) -> None:
        c.add_argument("--skills-dir", metavar="DIR", action="append", default=[])
        c.add_argument("--no-discover", action="store_true")

    c = cmd("rank", "Rank candidates with a per-factor score breakdown and readable reasons. Reads state, never writes.")
    c.add_argument("--candidates", metavar="FILE|-", required=True)
    from_args(c)
    c.add_argument("--mode", choices=["manual", "daily"], required=True)
    rank_args(c)
    discovery_args(c)
    agent_args(c)
    c = cmd("recommend", "The main job: filter -> scan -> rank -> pick -> card; records `shown` (unless --dry-run).")
    c.add_argument("--mode", choices=["manual", "daily"], required=True)
    src = c.add_mutually_exclusive_group()
    src.add_argument("--candidates", metavar="FILE|-")
    src.add_argument("--sample", action="store_true", help="The built-in demonstration data (the card says so; nothing is recorded).")
    from_args(c)
    rank_args(c)
    c.add_argument("--json", action="store_true")
    c.add_argument("--dry-run", action="store_true")
    c.add_argument("--remote-version", metavar="SEMVER")
    c.add_argument("--local-version", metavar="SEMVER")
    c.add_argument("--other-question", action="store_true")
    discovery_args(c)
    agent_args(c)
    c = cmd("render", "Render the card for a `recommend --json` result. Reads no state.")
    c.add_argument("--mode", choices=["manual", "daily"], required=True)
    c.add_argument("--input", metavar="FILE|-", required=True)
    c.add_argument("--json", action="store_true")
    c = cmd("validate", "Validate SKILL.md against the agentskills.io specification. Exit 0 valid, 8 invalid.")
    c.add_argument("path")
    c.add_argument("--strict", action="store_true")
    c.add_argument("--quality", action="store_true", help="Also assess the skill's quality (prompt-only, basic, strong).")
    return p


def dumps(value: Any, compact: bool) -> str:
    """serde_json's output: keys sorted (a serde_json ``Value`` map is ordered), 2-space indent, UTF-8."""
    if compact:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=2)


def _print(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass


def read_input(field: str, path: str, limit: int) -> str:
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        from .errors import io_message

        raise InvalidInput(field, f"cannot read {name}: {io_message(e)}") from None
    if len(data) > limit:
        raise InvalidInput(field, f"{name} is over the {limit}-byte input limit")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(field, f"{name} is not UTF-8 text") from None


def exit_code_of(value: Any) -> int:
    """7 partial, 8 block/invalid, 9 ask, 10 nothing usable; else 0."""
    if isinstance(value, dict):
        skipped = value.get("skipped")
        if isinstance(skipped, list) and skipped:
            sys.stderr.write('skill-recommender: some items were skipped; see "skipped" in the output\n')
            return 7
        policy = value.get("policy")
        valid = value.get("valid")
        if policy == "block" or valid is False:
            return 8
        if policy == "ask":
            return 9
        if value.get("reason") == "no_usable_candidates":
            return 10
        summary = value.get("summary") if isinstance(value.get("summary"), dict) else {}
        if isinstance(value.get("kept"), list) and not value["kept"] and "mode" in value and summary.get("kept") == 0:
            return 10
    return 0


def report_text(v: dict) -> str:
    def s(k: str) -> str:
        x = v.get(k)
        return x if isinstance(x, str) else ""

    stats = v.get("stats") if isinstance(v.get("stats"), dict) else {}

    def j(x: Any) -> str:
        return json.dumps(x, ensure_ascii=False, separators=(",", ":"))

    out = (
        f"skill:   {s('skill')}\ntrust:   {s('trust')}\nverdict: {s('verdict').upper()}\n"
        f"policy:  {s('policy').upper()}  ({s('reason')})\n"
        f"files:   {j(stats.get('files'))} ({j(stats.get('bytes'))} bytes), {j(stats.get('rules'))} rules\n"
    )
    quality = v.get("quality")
    if isinstance(quality, dict) and isinstance(quality.get("summary"), str):
        out += f"quality: {quality['summary']}\n"
    findings = v.get("findings") if isinstance(v.get("findings"), list) else []
    if not findings:
        out += "\nNo findings.\n"
    for f in findings:
        def fs(k: str) -> str:
            x = f.get(k)
            return x if isinstance(x, str) else ""

        line = f.get("line")
        place = fs("file") if not isinstance(line, int) or isinstance(line, bool) or line <= 0 else f"{fs('file')}:{line}"
        out += f"\n[{fs('severity').upper()}] {fs('rule_id')}  {place}\n    {fs('evidence')}\n    {fs('description')}\n"
        related = f.get("related") if isinstance(f.get("related"), list) else []
        for r in related:
            def rs(k: str, r: dict = r) -> str:
                x = r.get(k)
                return x if isinstance(x, str) else ""

            out += f"    {rs('role')} {rs('file')}:{json.dumps(r.get('line'))}  {rs('evidence')}\n"
    return out


def sample_candidates() -> str:
    """The bundled sample candidates (``recommend``'s development fallback), copied in at build time."""
    from importlib import resources

    try:
        return resources.files(__package__).joinpath("data", "sample_candidates.json").read_text("utf-8")
    except OSError as e:
        raise InvalidInput("candidates", f"--sample: the sample data is not packaged ({e})") from None


NO_CANDIDATES = (
    "no candidates given: pass --candidates FILE (or - for standard input) with what your search found — "
    '{"candidates": [{"skill_id", "name", "url", "description", "source"}, ...]} (schema/candidates.schema.json) '
    "or a registry's own API response — or --sample for the built-in demonstration"
)


def run(a: argparse.Namespace):
    from .host import Host

    component = None
    if getattr(a, "component", None) is not None:
        try:
            with open(a.component, "rb") as f:
                component = f.read()
        except OSError as e:
            from .errors import io_message

            raise InvalidInput("component", f"cannot read {a.component}: {io_message(e)}") from None
    h = Host(
        getattr(a, "state_dir", None),
        now=getattr(a, "now", None),
        timezone=getattr(a, "timezone", None),
        lang=getattr(a, "lang", None),
        legacy_data_dir=getattr(a, "legacy_data_dir", None),
        cache_dir=getattr(a, "cache_dir", None),
        no_cache=getattr(a, "no_cache", False),
        component=component,
    )
    limit = h.runtime.limits.max_input_bytes
    c = a.command
    if c == "scan":
        return h.scan(read_input("candidates", a.candidates, limit), a.mode, registry=a.registry, base_url=a.base_url)
    if c == "scan-bundle":
        return h.scan_bundle(a.path, trust=a.trust, source=a.source, force=a.force)
    if c == "validate":
        return h.validate(a.path, strict=a.strict, quality=a.quality)
    if c == "normalize":
        out = h.normalize(read_input("input", a.input, limit), registry=a.registry, base_url=a.base_url)
        for w in out.get("warnings") or []:
            sys.stderr.write(
                f"skill-recommender: item {json.dumps(w.get('index'))}: {w.get('field') or ''}: {w.get('message') or ''}\n"
            )
        return out
    if c == "render":
        return h.render(read_input("input", a.input, limit), a.mode)
    h.store()  # resolve the state directory first (invalid_input on state-dir), as the Rust CLI does
    if c == "filter":
        text = read_input("candidates", a.candidates, limit)
        out = h.filter(
            text, a.mode, skills_dirs=a.skills_dir, discover=not a.no_discover,
            registry=a.registry, base_url=a.base_url, platform=a.platform, capabilities=a.capabilities,
        )
        for w in out["discovery"]["warnings"]:
            sys.stderr.write(f"skill-recommender: {w}\n")
    elif c == "rank":
        text = read_input("candidates", a.candidates, limit)
        out = h.rank(
            text, a.mode, task=a.task, signals=a.signals, skills_dirs=a.skills_dir, discover=not a.no_discover,
            registry=a.registry, base_url=a.base_url, platform=a.platform, capabilities=a.capabilities,
        )
        for w in out["discovery"]["warnings"]:
            sys.stderr.write(f"skill-recommender: {w}\n")
    elif c == "recommend":
        if a.candidates is not None:
            text = read_input("candidates", a.candidates, limit)
        elif a.sample:
            # The demonstration data carries "demo": true: the card says so and nothing is recorded.
            text = sample_candidates()
        else:
            raise InvalidInput("candidates", NO_CANDIDATES)
        out = h.recommend(
            text, a.mode, task=a.task, signals=a.signals, dry_run=a.dry_run,
            remote_version=a.remote_version, local_version=a.local_version, other_question=a.other_question,
            skills_dirs=a.skills_dir, discover=not a.no_discover, registry=a.registry, base_url=a.base_url,
            platform=a.platform, capabilities=a.capabilities,
        )
        for w in out["discovery"]["warnings"]:
            sys.stderr.write(f"skill-recommender: {w}\n")
    elif c == "status":
        out = h.status(verbose=a.verbose)
    elif c == "prompt-daily":
        out = h.prompt_daily(a.source)
    elif c == "enable-daily":
        out = h.enable_daily(a.scheduler_available)
    elif c == "confirm-daily-enabled":
        out = h.confirm_daily_enabled()
    elif c == "fail-daily-schedule":
        out = h.fail_daily_schedule(a.reason)
    elif c == "disable-daily":
        out = h.disable_daily()
    elif c == "unsupported-daily":
        out = h.unsupported_daily()
    elif c == "daily-gate":
        out = h.daily_gate(not a.no_search_capability)
    elif c == "failure-notice":
        out = h.failure_notice("dismiss" if a.dismiss else "restore")
    elif c == "update-check":
        out = h.update_check(a.remote_version, a.local_version)
    elif c == "update-notice":
        out = h.update_notice("accept" if a.accept else "dismiss")
    elif c in ("shown", "accept", "reject"):
        cats: List[str] = [x for item in a.categories for x in item.split(",")]
        out = h.feedback(c, a.skill_id, name=a.skill_name, url=a.skill_url, categories=cats, mode=getattr(a, "mode", None))
    else:  # pragma: no cover - argparse refuses unknown commands
        raise SystemExit(2)
    for frm, to in h.migrations:
        sys.stderr.write(f"skill-recommender: migrated legacy {frm} to {to}\n")
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    if getattr(a, "cache_dir", None) is not None and getattr(a, "no_cache", False):
        parser.error("the argument '--cache-dir <DIR>' cannot be used with '--no-cache'")
    if a.command == "recommend" and a.local_version is not None and a.remote_version is None:
        parser.error("the following required arguments were not provided:\n  --remote-version <SEMVER>")
    if a.command in ("filter", "scan", "rank", "recommend") and a.base_url is not None and a.registry is None:
        parser.error("the following required arguments were not provided:\n  --from <REGISTRY>")
    if a.command == "recommend" and a.sample and a.registry is not None:
        parser.error("the argument '--sample' cannot be used with '--from <REGISTRY>'")
    compact = bool(getattr(a, "compact", False))
    try:
        value = run(a)
    except SkillRecommenderError as e:
        _print(dumps(e.to_json(), compact) + "\n")
        sys.stderr.write(f"skill-recommender: error: {e.message}\n")
        return e.exit_code
    if a.command == "scan-bundle" and a.text:
        _print(report_text(value))
    elif a.command in ("recommend", "render") and not a.json:
        card = value.get("card") if isinstance(value, dict) else None
        if isinstance(card, str):
            _print(card)
        elif value.get("reason") == "no_usable_candidates":
            # Nothing left: say why on stdout too (one line per reason), not only on stderr.
            _print(str(value.get("message") or "") + "\n")
        else:
            reason = value.get("reason") if isinstance(value.get("reason"), str) else "silent"
            message = value.get("message") if isinstance(value.get("message"), str) else ""
            sys.stderr.write(f"skill-recommender: nothing to show ({reason}): {message}\n")
    else:
        _print(dumps(value, compact) + "\n")
    return exit_code_of(value)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
