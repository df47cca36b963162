"""Runs the shared conformance cases (``tests/conformance/cases/*.json`` at the repository root) through
a CLI, exactly as ``tests/conformance/README.md`` describes. Used by ``test_conformance.py``; also a
script for comparing two CLIs directly:

    python tests/conformance.py                      # check the installed skill-recommender against expect
    python tests/conformance.py --against RUST_CLI   # compare with another CLI case by case (no expect needed)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CASES_DIR = os.path.join(REPO, "tests", "conformance", "cases")


def case_files() -> List[str]:
    if not os.path.isdir(CASES_DIR):
        return []
    return sorted(os.path.join(CASES_DIR, f) for f in os.listdir(CASES_DIR) if f.endswith(".json"))


def installed_cli() -> Optional[str]:
    """``$SKILL_RECOMMENDER_CLI``, else the console script beside this interpreter, else on PATH."""
    env = os.environ.get("SKILL_RECOMMENDER_CLI")
    if env:
        return env
    beside = os.path.join(os.path.dirname(sys.executable), "skill-recommender")
    if os.path.exists(beside):
        return beside
    return shutil.which("skill-recommender")


def _text_of(v: Any) -> Optional[str]:
    if isinstance(v, dict) and len(v) == 1 and isinstance(v.get("$text"), str):
        return v["$text"]
    return None


def write_value(path: str, value: Any) -> None:
    if value is None:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    t = _text_of(value)
    data = t if t is not None else json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    with open(path, "wb") as f:
        f.write(data.encode("utf-8"))


def read_after(path: str, before: Any) -> Any:
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return None
    if _text_of(before) == text:
        return {"$text": text}
    try:
        return json.loads(text)
    except ValueError:
        return {"$text": text}


def redact(v: Any, subs: List[Tuple[str, str]]) -> Any:
    if isinstance(v, str):
        for frm, to in subs:
            v = v.replace(frm, to)
        return v
    if isinstance(v, list):
        return [redact(x, subs) for x in v]
    if isinstance(v, dict):
        return {k: redact(x, subs) for k, x in v.items()}
    return v


def remove_path(v: Any, dotted: str) -> None:
    parts = dotted.split(".")
    for p in parts[:-1]:
        if not isinstance(v, dict) or p not in v:
            return
        v = v[p]
    if isinstance(v, dict):
        v.pop(parts[-1], None)


def run_case(cli: List[str], case: Dict[str, Any], cache_dir: str) -> Dict[str, Any]:
    """Run one case; returns ``{exit, stdout, state_after, history_after}`` with paths redacted."""
    with tempfile.TemporaryDirectory(prefix="sr-conf-") as tmp:
        sd, fd, home = (os.path.join(tmp, n) for n in ("state", "files", "home"))
        for d in (sd, fd, home):
            os.makedirs(d)
        write_value(os.path.join(sd, "state.json"), case.get("state_before"))
        write_value(os.path.join(sd, "history.json"), case.get("history_before"))
        for name, value in (case.get("files") or {}).items():
            write_value(os.path.join(fd, *name.split("/")), value)
        args = ["--state-dir", sd]
        for flag, key in (("--now", "now"), ("--timezone", "timezone")):
            if isinstance(case.get(key), str):
                args += [flag, case[key]]
        args += [a.replace("$STATE_DIR", sd).replace("$FILES", fd) for a in case["args"]]
        env = dict(os.environ)
        env.pop("SKILL_RECOMMENDER_STATE_DIR", None)
        env.pop("HERMES_HOME", None)
        # The locale decides the language without --lang: pinned (tests/conformance/README.md), then the case's env.
        env.pop("LC_ALL", None)
        env.pop("LC_MESSAGES", None)
        env["LANG"] = "zh_CN.UTF-8"
        env.update({k: str(v) for k, v in (case.get("env") or {}).items()})
        env["HOME"] = home
        env["SKILL_RECOMMENDER_CACHE_DIR"] = cache_dir
        stdin = case.get("stdin")
        p = subprocess.run(
            cli + args,
            input=(stdin if isinstance(stdin, str) else "").encode("utf-8"),
            cwd=fd,
            env=env,
            capture_output=True,
            timeout=120,
        )
        text = p.stdout.decode("utf-8", "replace")
        if not text.strip():
            stdout = None
        else:
            try:
                stdout = json.loads(text)
            except ValueError as e:
                raise AssertionError(f"stdout is not JSON ({e}):\n{text}\nstderr: {p.stderr.decode(errors='replace')}")
        subs = [(sd, "$STATE_DIR"), (fd, "$FILES")]
        for d, name in ((sd, "$STATE_DIR"), (fd, "$FILES")):
            real = os.path.realpath(d)
            if real != d:
                subs.append((real, name))
        stdout = redact(stdout, subs)
        for path in case.get("ignore") or []:
            remove_path(stdout, path)
        return {
            "exit": p.returncode,
            "stdout": stdout,
            "state_after": read_after(os.path.join(sd, "state.json"), case.get("state_before")),
            "history_after": read_after(os.path.join(sd, "history.json"), case.get("history_before")),
            "stderr": p.stderr.decode("utf-8", "replace"),
        }


def _short(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 160 else s[:160] + "…"


def diff(path: str, want: Any, got: Any, out: List[str]) -> None:
    if isinstance(want, dict) and isinstance(got, dict):
        for k, wv in want.items():
            if k in got:
                diff(f"{path}.{k}", wv, got[k], out)
            else:
                out.append(f"{path}.{k}: missing (expected {_short(wv)})")
        for k, gv in got.items():
            if k not in want:
                out.append(f"{path}.{k}: unexpected {_short(gv)}")
    elif isinstance(want, list) and isinstance(got, list):
        for i, (wv, gv) in enumerate(zip(want, got)):
            diff(f"{path}[{i}]", wv, gv, out)
        if len(want) != len(got):
            out.append(f"{path}: expected {len(want)} items, got {len(got)}")
    elif want != got or type(want) is not type(got) and not (
        isinstance(want, (int, float)) and isinstance(got, (int, float)) and not isinstance(want, bool) and not isinstance(got, bool)
    ):
        out.append(f"{path}: expected {_short(want)}, got {_short(got)}")


def check(expect: Dict[str, Any], got: Dict[str, Any]) -> List[str]:
    out: List[str] = []
    if expect.get("exit") != got["exit"]:
        out.append(f"exit: expected {_short(expect.get('exit'))}, got {got['exit']}")
    for key in ("stdout", "state_after", "history_after"):
        if key not in expect:
            out.append(f"{key}: missing from expect")
        else:
            diff(key, expect[key], got[key], out)
    return out


def main(argv: List[str]) -> int:
    cli = installed_cli()
    against = None
    if "--against" in argv:
        against = argv[argv.index("--against") + 1]
    if cli is None:
        print("no skill-recommender CLI found (pip install ./hosts/python, or set SKILL_RECOMMENDER_CLI)")
        return 2
    failed = 0
    with tempfile.TemporaryDirectory() as c1, tempfile.TemporaryDirectory() as c2:
        for f in case_files():
            case = json.load(open(f, encoding="utf-8"))
            got = run_case([cli], case, c1)
            if against:
                ref = run_case([against], case, c2)
                problems = check(ref, got)
            elif case.get("expect") is None:
                print(f"SKIP {os.path.basename(f)}: expect not generated yet")
                continue
            else:
                problems = check(case["expect"], got)
            status = "ok  " if not problems else "FAIL"
            failed += bool(problems)
            print(f"{status} {os.path.basename(f)}")
            for p in problems:
                print(f"       {p}")
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
