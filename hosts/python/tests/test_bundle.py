"""The bundle reader: zip-slip, absolute paths, duplicates, bombs, symlinks, wrapper folders."""

import os
import zipfile

from skill_recommender.bundle import BundleLimits, read_bundle
from skill_recommender.host import trust_of_source

SKILL = "---\nname: zs\ndescription: A zip skill for the reader tests.\n---\nUse it.\n"


def make_zip(path, entries, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data, *mode in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = method
            if mode:
                info.create_system = 3
                info.external_attr = mode[0] << 16
            z.writestr(info, data)


def codes(bundle):
    return sorted((n.path, n.code) for n in bundle.notes)


def test_hostile_archive_entries_are_reported_not_read(tmp_path):
    z = tmp_path / "evil.skill"
    make_zip(z, [
        ("SKILL.md", SKILL),
        ("../escape.txt", "x"),
        ("/abs.txt", "y"),
        ("C:/win.txt", "z"),
        ("a\\b.txt", "w"),
        ("A/B.TXT", "duplicate after \\ -> / and case"),
        ("bomb.bin", b"\0" * (3 << 20)),
    ])
    b = read_bundle(z)
    assert b.name == "evil"
    assert [f.path for f in b.files] == ["SKILL.md", "a/b.txt"]
    assert codes(b) == [
        ("../escape.txt", "path_escape"),
        ("/abs.txt", "absolute_path"),
        ("A/B.TXT", "duplicate_path"),
        ("C:/win.txt", "absolute_path"),
        ("bomb.bin", "zip_bomb"),
    ]


def test_a_wrapper_folder_is_stripped_and_modes_kept(tmp_path):
    z = tmp_path / "plain.zip"
    make_zip(z, [
        ("zs/SKILL.md", SKILL, 0o100644),
        ("zs/run.sh", "#!/bin/sh\necho hi\n", 0o100755),
        ("zs/link", "../../etc/passwd", 0o120777),
        ("zs/inner", "run.sh", 0o120777),
    ])
    b = read_bundle(z)
    assert b.name == "zs"
    by = {f.path: f for f in b.files}
    assert sorted(by) == ["SKILL.md", "inner", "link", "run.sh"]
    assert by["run.sh"].executable and not by["SKILL.md"].executable
    assert (by["link"].kind, by["link"].link_target, by["link"].link_escapes) == ("symlink", "../../etc/passwd", True)
    assert (by["inner"].kind, by["inner"].link_escapes) == ("symlink", False)


def test_an_entry_over_the_cap_is_not_read(tmp_path):
    z = tmp_path / "big.zip"
    make_zip(z, [("SKILL.md", SKILL), ("big.txt", "a" * 2000)], method=zipfile.ZIP_STORED)
    b = read_bundle(z, BundleLimits(max_file_bytes=1000))
    assert codes(b) == [("big.txt", "file_too_large")]


def test_folders_report_symlinks_by_components_and_skip_git(tmp_path):
    root = tmp_path / "skill"
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("x")
    (root / "SKILL.md").write_text(SKILL)
    (root / "sub" / "a.py").write_text("print(1)\n")
    (root / "tool").write_bytes(b"\x7fELF\x02\x01\x01")
    evil = tmp_path / "skill-evil"
    evil.mkdir()
    (evil / "x").write_text("outside")
    os.symlink(evil / "x", root / "prefix-trick")
    os.symlink("sub/a.py", root / "inside")
    os.symlink("loop2", root / "loop1")
    os.symlink("loop1", root / "loop2")
    b = read_bundle(root)
    by = {f.path: f for f in b.files}
    assert sorted(by) == ["SKILL.md", "inside", "loop1", "loop2", "prefix-trick", "sub/a.py", "tool"]
    assert by["prefix-trick"].link_escapes is True
    assert by["inside"].link_escapes is False
    assert (by["tool"].kind, by["tool"].magic) == ("binary", "elf")
    assert codes(b) == [("loop1", "symlink_loop"), ("loop2", "symlink_loop")]


def test_trust_is_derived_only_from_exact_official_repositories():
    assert trust_of_source("https://github.com/anthropics/skills/tree/main/pdf") == "trusted"
    assert trust_of_source("https://www.GitHub.com/OpenAI/Skills.git") == "trusted"
    assert trust_of_source("https://github.com/anthropics/skills-evil") == "community"
    assert trust_of_source("https://gitlab.com/anthropics/skills") == "community"
    assert trust_of_source("file:///etc") == "community"
