"""The file store: atomic replace, corrupt files never touched, the lock, transactions, migration."""

import fcntl
import json
import os

import pytest

import skill_recommender.store as store_mod
from skill_recommender import Host, SkillRecommenderError
from skill_recommender.errors import StoreError
from skill_recommender.store import FileStateStore, atomic_write, resolve_state_dir

NOW = "2026-11-29T02:00:00Z"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cache"))


def host(d, cache, **kw):
    return Host(d, now=NOW, timezone="Asia/Shanghai", cache_dir=cache, **kw)


def leftovers(d):
    return sorted(n for n in os.listdir(d) if n.endswith(".tmp"))


def test_atomic_write_replaces_and_leaves_no_temp_file(tmp_path):
    p = tmp_path / "state.json"
    p.write_text("old")
    os.chmod(p, 0o640)
    atomic_write(str(p), b'{"new": true}')
    assert p.read_text() == '{"new": true}'
    assert oct(os.stat(p).st_mode & 0o777) == oct(0o640), "permissions kept"
    assert leftovers(tmp_path) == []


def test_a_failed_write_keeps_the_old_file_and_removes_the_temp(tmp_path, monkeypatch):
    p = tmp_path / "state.json"
    p.write_text("old")

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(store_mod.os, "fsync", broken_fsync)
    with pytest.raises(StoreError) as e:
        atomic_write(str(p), b"new")
    assert "cannot fsync" in e.value.message and str(p) in e.value.message
    assert p.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_a_corrupt_state_file_is_never_touched(tmp_path, cache):
    sd = tmp_path / "state"
    sd.mkdir()
    corrupt = b'{"daily_rec_status": "prompted",,,'
    (sd / "state.json").write_bytes(corrupt)
    before = os.stat(sd / "state.json").st_mtime_ns
    with pytest.raises(SkillRecommenderError) as e:
        host(sd, cache).enable_daily()
    err = e.value.to_json()["error"]
    assert (err["code"], err["exit_code"], err["file"]) == ("corrupt_state", 4, "state.json")
    assert err["path"] == str(sd / "state.json")
    assert (sd / "state.json").read_bytes() == corrupt
    assert os.stat(sd / "state.json").st_mtime_ns == before
    assert not (sd / "history.json").exists()
    assert leftovers(sd) == []


def test_a_non_utf8_state_file_is_a_store_error_naming_it(tmp_path, cache):
    (tmp_path / "state.json").write_bytes(b"\xff\xfe{}")
    with pytest.raises(SkillRecommenderError) as e:
        host(tmp_path, cache).status()
    assert e.value.exit_code == 4
    assert e.value.to_json()["error"]["path"] == str(tmp_path / "state.json")
    assert (tmp_path / "state.json").read_bytes() == b"\xff\xfe{}"


def test_an_oversized_state_file_is_refused_not_truncated(tmp_path):
    (tmp_path / "state.json").write_text(json.dumps({"x": "y" * 100}))
    st = FileStateStore(tmp_path, max_document_bytes=50)
    s = st.begin()
    try:
        with pytest.raises(StoreError, match="over the 50-byte limit"):
            s.read("state")
    finally:
        s.close()


def test_the_lock_is_exclusive_and_released(tmp_path):
    st = FileStateStore(tmp_path, lock_timeout=0.2)
    fd = os.open(tmp_path / "state.lock", os.O_WRONLY | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with pytest.raises(StoreError, match="held by another skill-recommender process") as e:
            st.begin()
        assert e.value.exit_code == 4 and e.value.path == str(tmp_path / "state.lock")
    finally:
        os.close(fd)
    s = st.begin()  # free again
    try:
        with pytest.raises(StoreError):
            FileStateStore(tmp_path, lock_timeout=0.05).begin()  # and held by our session
    finally:
        s.close()
    FileStateStore(tmp_path, lock_timeout=0.05).begin().close()


def test_a_refused_call_writes_nothing(tmp_path, cache):
    with pytest.raises(SkillRecommenderError) as e:
        host(tmp_path, cache).confirm_daily_enabled()
    assert e.value.exit_code == 6
    assert sorted(os.listdir(tmp_path)) == ["state.lock"]


def test_a_successful_call_commits_and_a_no_op_does_not_rewrite(tmp_path, cache):
    h = host(tmp_path, cache)
    assert h.prompt_daily("post_install")["changed"] is True
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["daily_rec_status"] == "prompted"
    mtime = os.stat(tmp_path / "state.json").st_mtime_ns
    assert h.prompt_daily("manual")["changed"] is False
    assert os.stat(tmp_path / "state.json").st_mtime_ns == mtime
    assert leftovers(tmp_path) == []


def test_legacy_migration_copies_once_and_skips_the_template(tmp_path, cache):
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "state.json").write_text(json.dumps({"daily_rec_status": "enabled", "user_id": "old"}))
    template = os.path.join(os.path.dirname(store_mod.__file__), "data", "history.json")
    (legacy / "history.json").write_text(open(template).read())
    sd = tmp_path / "state"
    h = host(sd, cache, legacy_data_dir=legacy)
    assert h.status()["daily_rec_status"] == "enabled"
    assert json.loads((sd / "state.json").read_text())["user_id"] == "old"
    assert not (sd / "history.json").exists(), "an untouched template is not migrated"
    assert [os.path.basename(t) for _, t in h.migrations] == ["state.json"]


def test_a_corrupt_legacy_file_is_an_error_and_nothing_is_migrated(tmp_path, cache):
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "state.json").write_text("[1, 2")
    sd = tmp_path / "state"
    with pytest.raises(SkillRecommenderError) as e:
        host(sd, cache, legacy_data_dir=legacy).status()
    assert e.value.exit_code == 4 and "legacy file" in e.value.message
    assert e.value.to_json()["error"]["path"] == str(legacy / "state.json")
    assert not (sd / "state.json").exists()


def test_state_dir_resolution_order(tmp_path):
    env = {"SKILL_RECOMMENDER_STATE_DIR": "/a", "HERMES_HOME": "/h"}
    assert resolve_state_dir("/flag", env.get, str(tmp_path)) == ("/flag", "--state-dir")
    assert resolve_state_dir(None, env.get, str(tmp_path)) == ("/a", "$SKILL_RECOMMENDER_STATE_DIR")
    env["SKILL_RECOMMENDER_STATE_DIR"] = ""
    assert resolve_state_dir(None, env.get, str(tmp_path)) == ("/h/state/skill-recommender", "$HERMES_HOME")
    assert resolve_state_dir(None, {}.get, str(tmp_path)) == (str(tmp_path / ".skill-recommender"), "~/.skill-recommender")
    (tmp_path / ".hermes").mkdir()
    assert resolve_state_dir(None, {}.get, str(tmp_path)) == (
        str(tmp_path / ".hermes" / "state" / "skill-recommender"),
        "~/.hermes",
    )
    with pytest.raises(ValueError):
        resolve_state_dir(None, {}.get, None)
