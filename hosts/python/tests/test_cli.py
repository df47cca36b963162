"""CLI behaviour beyond the conformance cases: flag placement, usage errors, concurrency, pipes."""

import json
import os
import subprocess
import sys

import pytest

from conformance import installed_cli

NOW = "2026-11-29T02:00:00Z"
CLI = installed_cli()
pytestmark = pytest.mark.skipif(CLI is None, reason="skill-recommender is not installed")


def run(args, tmp_path, **kw):
    env = dict(os.environ, HOME=str(tmp_path / "home"), SKILL_RECOMMENDER_CACHE_DIR=str(tmp_path.parent / "cli-cache"))
    env.pop("SKILL_RECOMMENDER_STATE_DIR", None)
    env.pop("HERMES_HOME", None)
    return subprocess.run([CLI] + args, capture_output=True, text=True, env=env, timeout=120, **kw)


def test_global_flags_go_before_or_after_the_command_and_the_last_wins(tmp_path):
    a = run(["status", "--state-dir", str(tmp_path / "x"), "--state-dir", str(tmp_path / "s"), "--now", NOW, "--compact"], tmp_path)
    assert a.returncode == 0, a.stderr
    out = json.loads(a.stdout)
    assert out["state_dir"] == str(tmp_path / "s")
    assert "\n" not in a.stdout.strip(), "--compact after the command applies"


def test_usage_errors_exit_2_with_the_error_object_on_stdout(tmp_path):
    for args in (
        ["--cache-dir", str(tmp_path), "--no-cache", "status"],
        ["failure-notice", "--dismiss", "--restore"],
        ["--lang", "fr", "status"],
        ["status", "--stat-dir", "x"],
        ["recommend", "--mode", "manual", "--base-url", "https://hub.example.com"],
        [],
    ):
        p = run(["--state-dir", str(tmp_path / "s")] + args, tmp_path)
        assert p.returncode == 2, args
        err = json.loads(p.stdout)["error"]
        assert (err["code"], err["exit_code"]) == ("usage", 2), args
        assert err["message"], args
        assert p.stderr.strip(), args


def test_errors_are_json_on_stdout_and_one_line_on_stderr(tmp_path):
    p = run(["--state-dir", str(tmp_path / "s"), "--now", "yesterday", "status"], tmp_path)
    assert p.returncode == 3
    err = json.loads(p.stdout)["error"]
    assert (err["code"], err["field"], err["exit_code"]) == ("invalid_input", "now", 3)
    assert p.stderr.startswith("skill-recommender: error: invalid now:")


def test_concurrent_processes_lose_no_update(tmp_path):
    sd = tmp_path / "s"
    procs = [
        subprocess.Popen(
            [CLI, "--state-dir", str(sd), "--now", NOW, "shown", "--skill-id", f"x:s{i}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=dict(os.environ, SKILL_RECOMMENDER_CACHE_DIR=str(tmp_path / "cache")),
        )
        for i in range(6)
    ]
    for p in procs:
        assert p.wait(timeout=120) == 0, p.stderr.read()
    history = json.loads((sd / "history.json").read_text())
    assert sorted(r["skill_id"] for r in history["recommendations"]) == [f"x:s{i}" for i in range(6)]


def test_a_closed_stdout_is_not_a_crash(tmp_path):
    # The reader goes away before the CLI writes (like `| head` that has seen enough): no traceback,
    # and the exit code is the command's.
    p = subprocess.Popen(
        [CLI, "--state-dir", str(tmp_path / "s"), "--now", NOW, "status"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ, SKILL_RECOMMENDER_CACHE_DIR=str(tmp_path / "cache")),
    )
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
