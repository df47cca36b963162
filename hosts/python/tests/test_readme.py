"""This host's README code blocks, run as written (issue 15: none may go stale): ``python`` blocks
with this interpreter (the installed package), ``sh`` blocks with bash, each in a scratch folder with
the repository's ``tests/`` and ``data/`` linked and a state directory and HOME of its own. ``text``
blocks (install steps that build or fetch) are not run; the test lists them."""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PKG))


def blocks(text):
    out, cur = [], None
    for i, line in enumerate(text.split("\n"), 1):
        s = line.lstrip()
        fence = s[3:].strip() if s.startswith("```") else None
        if cur is None and fence is not None:
            cur = {"line": i, "lang": (fence.split() or [""])[0], "body": ""}
        elif cur is not None and fence == "":
            out.append(cur)
            cur = None
        elif cur is not None:
            cur["body"] += line + "\n"
    return out


def test_every_code_block_of_the_readme_runs_as_written():
    with open(os.path.join(PKG, "README.md"), encoding="utf-8") as f:
        all_blocks = blocks(f.read())
    ran, not_run = 0, []
    with tempfile.TemporaryDirectory(prefix="sr-readme-") as root:
        work = os.path.join(root, "work")
        os.makedirs(work)
        os.makedirs(os.path.join(root, "home"))
        for d in ("tests", "data", "schema"):
            os.symlink(os.path.join(REPO, d), os.path.join(work, d))
        env = dict(os.environ, HOME=os.path.join(root, "home"), SKILL_RECOMMENDER_STATE_DIR=os.path.join(root, "state"), LANG="C.UTF-8")
        env.pop("HERMES_HOME", None)
        env.pop("LC_ALL", None)
        # the console script beside this interpreter, for sh blocks
        env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
        for b in all_blocks:
            at = f"README.md:{b['line']}"
            if b["lang"] == "python":
                r = subprocess.run([sys.executable, "-c", b["body"]], cwd=work, env=env, capture_output=True, text=True, timeout=300)
            elif b["lang"] == "sh":
                r = subprocess.run(["bash", "-c", "set -euo pipefail\n" + b["body"]], cwd=work, env=env, capture_output=True, text=True, timeout=300)
            elif b["lang"] == "text":
                not_run.append(at)
                continue
            else:
                raise AssertionError(f"{at}: code block language {b['lang']!r} (python, sh or text)")
            assert r.returncode == 0, f"{at}: the block failed\n{b['body']}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
            ran += 1
    print(f"README blocks run: {ran}; not run (text): {', '.join(not_run)}")
    assert ran >= 1
