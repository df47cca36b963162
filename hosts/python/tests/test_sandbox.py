"""The sandbox: what the component is linked against, limits, and transactional commits, using the
project's hostile fixture component (built by `cargo build -p host-harness`) where needed."""

import json
import os
import sys

import pytest
import wasmtime

from conformance import REPO
from skill_recommender import Host, Limits, SkillRecommenderError
from skill_recommender.errors import ComponentLoad
from skill_recommender.runtime import DEFAULT_DEADLINE, DEFAULT_DEADLINE_PER_MIB, MIB, Runtime

NOW = "2026-11-29T02:00:00Z"
HOSTILE = os.path.join(REPO, "target", "guest-wasm", "wasm32-wasip2", "wasm-release", "hostile_guest.wasm")
STD_IMPORTS = {
    "wasi:io/poll", "wasi:io/error", "wasi:io/streams", "wasi:cli/environment", "wasi:cli/exit",
    "wasi:cli/stdin", "wasi:cli/stdout", "wasi:cli/stderr", "wasi:cli/terminal-input",
    "wasi:cli/terminal-output", "wasi:cli/terminal-stdin", "wasi:cli/terminal-stdout", "wasi:cli/terminal-stderr",
}


def test_the_component_imports_only_std_io_cli_the_state_store_and_host_env(tmp_path):
    imports = Host(tmp_path, now=NOW, no_cache=True).status(verbose=True)["host"]["component_imports"]
    bases = {i.split("@")[0] for i in imports}
    assert bases - STD_IMPORTS == {
        "skill-recommender:core/types",
        "skill-recommender:core/state-store",
        "skill-recommender:core/host-env",
    }


def test_host_env_looks_up_plain_names_only_for_this_platform():
    from skill_recommender.commands import MAX_NAMES, canonical_platform, find_commands, looks_up_for

    here = canonical_platform(sys.platform)
    assert canonical_platform("darwin") == "macos" and canonical_platform("freebsd13") == "freebsd"
    assert looks_up_for(None) and looks_up_for(here)
    assert not looks_up_for("windows" if here != "windows" else "linux")
    assert find_commands(["jq"], False) is None
    assert find_commands(["x"] * (MAX_NAMES + 1), True) is None
    if os.name == "posix":
        assert find_commands(["sh", "no-such-command-skill-recommender", "/bin/sh"], True) == [True, False, False]


def test_a_component_importing_the_filesystem_is_refused_naming_it():
    wat = """(component
      (import "wasi:filesystem/preopens@0.2.6" (instance))
      (instance $i)
      (export "skill-recommender:core/lifecycle@0.1.0" (instance $i)))"""
    with pytest.raises(ComponentLoad, match="wasi:filesystem/preopens@0.2.6"):
        Runtime(component=wasmtime.wat2wasm(wat), no_cache=True)


def test_a_component_for_another_contract_version_is_refused_naming_both():
    wat = """(component (instance $i) (export "skill-recommender:core/lifecycle@0.2.0" (instance $i)))"""
    with pytest.raises(ComponentLoad, match=r"core@0\.2\.0, but this host expects @0\.1\.0"):
        Runtime(component=wasmtime.wat2wasm(wat), no_cache=True)


def test_the_cache_is_written_then_hit_and_a_tampered_file_is_rebuilt(tmp_path):
    from skill_recommender import cache
    from skill_recommender.runtime import bundled_component

    wasm = bundled_component()
    key = "test"
    eng = wasmtime.Engine(wasmtime.Config())
    _, first = cache.load(eng, wasm, str(tmp_path), key)
    assert first["outcome"] == "miss" and first["written"] is True
    _, second = cache.load(eng, wasm, str(tmp_path), key)
    assert second == {"outcome": "hit", "path": first["path"]}
    data = bytearray(open(first["path"], "rb").read())
    data[-1] ^= 1
    open(first["path"], "wb").write(bytes(data))
    _, third = cache.load(eng, wasm, str(tmp_path), key)
    assert third["outcome"] == "rebuilt" and third["reason"] == "checksum mismatch"
    _, fourth = cache.load(eng, wasm, str(tmp_path), key)
    assert fourth["outcome"] == "hit"


def test_the_deadline_is_10_s_plus_1_s_per_started_mib_of_input():
    # host-harness limits.rs: the_deadline_grows_with_the_input_per_started_mib
    assert (DEFAULT_DEADLINE, DEFAULT_DEADLINE_PER_MIB) == (10.0, 1.0)
    lim = Limits()
    assert (lim.deadline, lim.deadline_per_mib) == (DEFAULT_DEADLINE, DEFAULT_DEADLINE_PER_MIB)
    assert lim.deadline_for(0) == 10.0
    assert lim.deadline_for(1) == 11.0
    assert lim.deadline_for(MIB) == 11.0
    assert lim.deadline_for(MIB + 1) == 12.0
    assert lim.deadline_for(44 << 20) == 54.0
    assert lim.deadline_for(lim.max_input_bytes) == 74.0
    assert Limits(deadline=0.3, deadline_per_mib=0.0).deadline_for(5 * MIB) == 0.3
    assert Limits(deadline=2.0, deadline_per_mib=0.5).deadline_for(2 * MIB + 1) == 3.5
    assert Limits(deadline=None).deadline_for(MIB) is None


def test_deadline_ticks_round_down_but_never_to_zero():
    # host-harness limits.rs: deadline_ticks_round_down_but_never_to_zero (10 ms ticks)
    assert Limits().deadline_ticks(0) == 1000
    assert Limits().deadline_ticks(MIB + 1) == 1200
    assert Limits(deadline=0.001, deadline_per_mib=0.0).deadline_ticks(0) == 1
    assert Limits(deadline=0.57, deadline_per_mib=0.0).deadline_ticks(0) == 57  # not 56 from float error
    assert Limits(deadline=None).deadline_ticks(0) is None


@pytest.fixture
def epoch_deadlines(monkeypatch):
    """The epoch deadline (in ticks) each call's Store is given, in call order."""
    seen = []
    original = wasmtime.Store.set_epoch_deadline

    def record(self, ticks):
        seen.append(ticks)
        return original(self, ticks)

    monkeypatch.setattr(wasmtime.Store, "set_epoch_deadline", record)
    return seen


def test_each_call_gets_the_deadline_for_its_input_size(tmp_path, epoch_deadlines):
    h = Host(tmp_path / "state", now=NOW, timezone="UTC", no_cache=True)
    h.daily_gate()
    assert epoch_deadlines == [1000]  # no input: 10 s
    padded = '{"candidates": []}' + " " * (2 * MIB)  # 2 MiB + 18 bytes: three started MiB
    assert h.normalize(padded, registry="candidates")["candidates"] == []
    assert epoch_deadlines == [1000, 1300]
    skill = tmp_path / "big-skill"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: big-skill\ndescription: d\n---\n" + "y" * MIB)  # MiB + 39 bytes
    h.validate(skill)
    assert epoch_deadlines == [1000, 1300, 1200]


hostile_only = pytest.mark.skipif(not os.path.exists(HOSTILE), reason=f"{HOSTILE} not built (cargo build -p host-harness)")


def hostile(tmp_path, **limits):
    lim = Limits(deadline=limits.get("deadline", 0.5), max_memory_bytes=limits.get("memory", 64 << 20), max_document_bytes=4 << 20)
    with open(HOSTILE, "rb") as f:
        wasm = f.read()
    return Host(tmp_path, now=NOW, timezone="UTC", component=wasm, limits=lim, no_cache=True)


def files(d):
    return sorted(n for n in os.listdir(d) if n != "state.lock")


@hostile_only
def test_a_runaway_call_hits_the_deadline_and_writes_nothing(tmp_path):
    with pytest.raises(SkillRecommenderError) as e:
        hostile(tmp_path).status()
    assert e.value.to_json()["error"] | {"message": ""} == {
        "code": "sandbox_limit", "exit_code": 5, "limit": "deadline", "message": ""}


@hostile_only
def test_a_memory_hog_hits_the_memory_cap(tmp_path):
    with pytest.raises(SkillRecommenderError) as e:
        hostile(tmp_path).prompt_daily("manual")
    assert (e.value.code, e.value.details) == ("sandbox_limit", {"limit": "memory"})
    assert files(tmp_path) == []


@hostile_only
def test_a_trap_after_saving_writes_nothing_and_reports_the_panic(tmp_path):
    with pytest.raises(SkillRecommenderError) as e:
        hostile(tmp_path).enable_daily()
    assert e.value.code == "component_trap" and e.value.exit_code == 1
    assert "deliberate trap after saving" in e.value.details["guest_stderr"]
    assert files(tmp_path) == []


@hostile_only
def test_an_error_after_saving_writes_nothing(tmp_path):
    with pytest.raises(SkillRecommenderError) as e:
        hostile(tmp_path).disable_daily()
    assert e.value.to_json()["error"]["field"] == "fixture"
    assert files(tmp_path) == []


@hostile_only
def test_an_oversized_staged_document_is_refused_by_the_host(tmp_path):
    with pytest.raises(SkillRecommenderError) as e:
        hostile(tmp_path, memory=256 << 20).shown("x:y")
    assert e.value.code == "state_store"
    assert "over the 4194304-byte limit" in e.value.message
    assert files(tmp_path) == []


@hostile_only
def test_the_positive_control_commits_and_loads_see_staged_saves(tmp_path):
    h = hostile(tmp_path)
    assert h.confirm_daily_enabled() == {"committed": True}
    assert files(tmp_path) == ["history.json", "state.json"]
    assert json.loads((tmp_path / "state.json").read_text()) == {"hostile": True}
    assert h.unsupported_daily() == {"state": '{"hostile": true}', "history": '{"hostile": true}'}


@hostile_only
def test_both_deadline_numbers_can_be_overridden(tmp_path, epoch_deadlines):
    with open(HOSTILE, "rb") as f:
        wasm = f.read()
    lim = Limits(deadline=0.5, deadline_per_mib=0.25)
    h = Host(tmp_path, now=NOW, timezone="UTC", component=wasm, limits=lim, no_cache=True)
    padded = '{"pad": "' + "x" * (3 * MIB) + '"}'  # four started MiB; the fixture echoes it
    assert list(h.normalize(padded)) == ["pad"]
    h.unsupported_daily()
    assert epoch_deadlines == [150, 50]
