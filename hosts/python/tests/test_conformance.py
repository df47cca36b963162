"""Every shared conformance case (``tests/conformance/cases``, found from this file) through the
installed ``skill-recommender`` console script: same exit code, stdout JSON and state files as the
Rust CLI recorded in the case's ``expect``."""

import json
import os
import tempfile

import pytest

from conformance import CASES_DIR, case_files, check, installed_cli, run_case

CASES = case_files()
_CACHE = tempfile.mkdtemp(prefix="sr-conf-cache-")


def test_the_cases_are_found():
    assert os.path.isdir(CASES_DIR), f"no conformance cases at {CASES_DIR}"
    assert CASES, f"{CASES_DIR} holds no *.json case"


def test_the_console_script_is_installed():
    assert installed_cli(), "skill-recommender is not installed: pip install ./hosts/python (or set SKILL_RECOMMENDER_CLI)"


@pytest.mark.parametrize("path", CASES, ids=[os.path.basename(p)[:-5] for p in CASES])
def test_case(path):
    with open(path, encoding="utf-8") as f:
        case = json.load(f)
    if case.get("expect") is None:
        pytest.skip("expect not generated yet (UPDATE_CONFORMANCE=1 cargo test -p host-harness --test conformance)")
    cli = installed_cli()
    assert cli, "skill-recommender is not installed"
    got = run_case([cli], case, _CACHE)
    problems = check(case["expect"], got)
    assert not problems, "\n".join(problems) + f"\nstderr: {got['stderr'][-2000:]}"
