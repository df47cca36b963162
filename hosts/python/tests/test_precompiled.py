"""The component compiled when the package was built: used by every first run (empty, read-only or no
cache), and refused by wasmtime when it does not fit, then compiled around with a one-line note."""

import json
import os
import shutil
import stat
import subprocess

import pytest
import wasmtime

from conformance import installed_cli
from skill_recommender import cache as cache_mod
from skill_recommender import engine as engine_mod
from skill_recommender.runtime import Limits, Runtime

import skill_recommender

NOW = "2026-11-29T02:00:00Z"
CLI = installed_cli()
PKG = os.path.dirname(os.path.abspath(skill_recommender.__file__))
SHIPPED = os.path.isfile(os.path.join(PKG, engine_mod.ARTIFACT))
pytestmark = pytest.mark.skipif(not SHIPPED, reason="this install was built without guest.cwasm")


def test_the_default_runtime_loads_the_shipped_artifact():
    rt = Runtime(no_cache=True)
    assert rt.embedded == "used"
    assert rt.cache["outcome"] == "embedded"
    info = json.load(open(os.path.join(PKG, engine_mod.ARTIFACT_INFO)))
    assert info["engine_key"] == engine_mod.engine_key(True)


def test_other_limits_compile_for_themselves_without_a_note(capsys):
    rt = Runtime(no_cache=True, limits=Limits(deadline=None))
    assert rt.embedded.startswith("unused: ")
    assert rt.cache["outcome"] == "disabled"
    assert "compiling it instead" not in capsys.readouterr().err


def test_a_mismatched_artifact_is_refused_and_compiled_around(tmp_path, monkeypatch, capsys):
    # An artifact compiled for another engine configuration (no epoch interruption), and one that is
    # not an artifact at all: wasmtime refuses both; the runtime compiles, says so once, answers alike.
    other = wasmtime.Engine(engine_mod.config(epoch=False))
    wasm = open(os.path.join(PKG, "guest.wasm"), "rb").read()
    mismatched = bytes(wasmtime.component.Component(other, wasm).serialize())
    for name, artifact in (("mismatched", mismatched), ("garbage", b"\x7fELF not an artifact")):
        d = tmp_path / name
        d.mkdir()
        (d / engine_mod.ARTIFACT).write_bytes(artifact)
        shutil.copy(os.path.join(PKG, engine_mod.ARTIFACT_INFO), d / engine_mod.ARTIFACT_INFO)
        monkeypatch.setattr(cache_mod, "_package_dir", lambda d=d: str(d))
        rt = Runtime(cache_dir=str(tmp_path / f"cache-{name}"))
        assert rt.embedded.startswith("rejected: "), rt.embedded
        assert rt.cache["outcome"] == "miss", rt.cache
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "compiling it instead" in err, err


def _status(home, *flags):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILL_RECOMMENDER_") and k != "XDG_CACHE_HOME"}
    env["HOME"] = str(home)
    p = subprocess.run(
        # --verbose: the short status leaves out the host's paths.
        [CLI, "--state-dir", str(home.parent / "state"), "--now", NOW, *flags, "status", "--verbose"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "compiling" not in p.stderr, p.stderr
    return json.loads(p.stdout)


@pytest.mark.skipif(CLI is None, reason="skill-recommender is not installed")
def test_first_runs_compile_nothing(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    assert _status(home)["paths"]["cache"]["outcome"] == "embedded"
    assert _status(home, "--no-cache")["paths"]["cache"]["outcome"] == "embedded"
    home.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert _status(home)["paths"]["cache"]["outcome"] == "embedded"
    finally:
        home.chmod(0o755)
    assert os.listdir(home) == [], "nothing was written to HOME"
