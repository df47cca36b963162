"""The input limit is the host's own (``Limits.max_input_bytes``), as in the Rust host (host-harness
``run_cow`` checks ``self.limits.max_input_bytes``): an input over it is refused before the call, exit 3,
naming the field and both sizes. A host with the default limits accepts the same input."""

import json

import pytest

from skill_recommender import Host, Limits
from skill_recommender.errors import InvalidInput

NOW = "2026-11-29T02:00:00Z"
SMALL = 1_000


def candidates_of(size: int) -> str:
    """Valid candidates JSON of exactly ``size`` UTF-8 bytes (one candidate, its description padded)."""

    def doc(pad: int) -> str:
        return json.dumps(
            {
                "candidates": [
                    {
                        "skill_id": "clawhub:padded-skill",
                        "name": "padded-skill",
                        "url": "https://clawhub.ai/someone/padded-skill",
                        "description": "A skill whose description is padded " + "x" * pad,
                        "categories": ["documents"],
                        "source": "clawhub",
                    }
                ]
            }
        )

    text = doc(size - len(doc(0).encode("utf-8")))
    assert len(text.encode("utf-8")) == size
    return text


def host(tmp_path, limits=None):
    return Host(tmp_path / "state", now=NOW, timezone="UTC", lang="en", limits=limits, no_cache=True)


def assert_over_limit(excinfo, field: str, size: int):
    e = excinfo.value
    assert e.code == "invalid_input" and e.exit_code == 3 and e.field == field
    assert e.message == f"invalid {field}: {size} bytes, over the {SMALL}-byte input limit"
    assert e.to_json() == {"error": {"code": "invalid_input", "message": e.message, "exit_code": 3, "field": field}}


def test_a_small_max_input_bytes_refuses_a_2000_byte_candidates_input_the_default_host_accepts_it(tmp_path):
    candidates = candidates_of(2_000)
    small = host(tmp_path, Limits(max_input_bytes=SMALL))
    assert small.runtime.limits.max_input_bytes == SMALL
    for call in (
        lambda: small.scan(candidates, "manual"),
        lambda: small.filter(candidates, "manual", discover=False),
        lambda: small.rank(candidates, "manual", discover=False),
        lambda: small.recommend(candidates, "manual", discover=False, dry_run=True),
    ):
        with pytest.raises(InvalidInput) as excinfo:
            call()
        assert_over_limit(excinfo, "candidates", 2_000)
    assert not (tmp_path / "state").exists() or not any((tmp_path / "state").iterdir())

    default = host(tmp_path)
    assert default.runtime.limits.max_input_bytes == Limits().max_input_bytes
    out = default.scan(candidates, "manual")
    assert [c["skill_id"] for c in out["passed"]] == ["clawhub:padded-skill"]


def test_the_hosts_max_input_bytes_also_caps_normalize_render_and_bundles(tmp_path):
    small = host(tmp_path, Limits(max_input_bytes=SMALL))
    text = candidates_of(2_000)
    with pytest.raises(InvalidInput) as excinfo:
        small.normalize(text, registry="candidates")
    assert_over_limit(excinfo, "input", 2_000)
    with pytest.raises(InvalidInput) as excinfo:
        small.render(text, "manual")
    assert_over_limit(excinfo, "input", 2_000)

    skill = tmp_path / "big-skill"
    skill.mkdir()
    md = "---\nname: big-skill\ndescription: A skill with a long body.\n---\n" + "y" * 1_950 + "\n"
    (skill / "SKILL.md").write_text(md, encoding="utf-8")
    size = len(md.encode("utf-8"))
    assert size > SMALL
    with pytest.raises(InvalidInput) as excinfo:
        small.validate(skill)
    assert_over_limit(excinfo, "bundle", size)
    with pytest.raises(InvalidInput) as excinfo:
        small.scan_bundle(skill)
    assert_over_limit(excinfo, "bundle", size)

    # At the limit exactly is allowed; the default host takes the bundle.
    at_limit = host(tmp_path, Limits(max_input_bytes=2_000))
    assert len(at_limit.normalize(text, registry="candidates")["candidates"]) == 1
    assert isinstance(host(tmp_path).validate(skill), dict)
