"""Installed-skill discovery (a port of ``host-harness/src/discover.rs``): the host reads the usual
skill folders — the component cannot — and hands it each skill's SKILL.md ``name`` and, when the
frontmatter names one, its source repository. Unreadable or malformed skills are skipped with a warning.

The frontmatter YAML is parsed by the component itself (its ``validate`` export, the same budgeted
parser the Rust host uses), so both hosts read the same fields from the same file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

MAX_SKILL_MD_BYTES = 1 << 20
MAX_ENTRIES_PER_DIR = 5000


@dataclass
class InstalledSkill:
    name: str
    dir: str
    source: Optional[str]
    source_url: Optional[str]


@dataclass
class Discovery:
    skills: List[InstalledSkill] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    scanned: List[str] = field(default_factory=list)


def default_dirs(cwd: str, home: Optional[str]) -> List[Tuple[str, str]]:
    dirs = [(os.path.join(cwd, ".agents/skills"), "agents")]
    if home:
        dirs.append((os.path.join(home, ".agents/skills"), "agents"))
    dirs.append((os.path.join(cwd, ".claude/skills"), "claude"))
    if home:
        for p, label in (
            (".claude/skills", "claude"),
            (".hermes/skills", "hermes"),
            (".codex/skills", "codex"),
            (".openclaw/skills", "openclaw"),
        ):
            dirs.append((os.path.join(home, p), label))
    return dirs


def split_frontmatter(text: str) -> str:
    """The YAML between a first line ``---`` and the next ``---``/``...``; ValueError says why not."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = [l[:-1] if l.endswith("\r") else l for l in text.split("\n")]
    if lines and lines[-1] == "" and text.endswith("\n"):
        lines.pop()  # like Rust's str::lines
    if not lines or lines[0].rstrip() != "---":
        raise ValueError("no YAML frontmatter (the file must start with ---)")
    yaml = []
    for line in lines[1:]:
        if line.rstrip() in ("---", "..."):
            return "".join(l + "\n" for l in yaml)
        yaml.append(line)
    raise ValueError("the frontmatter is not closed by ---")


def _subdirs(d: str, warnings: List[str]) -> List[str]:
    try:
        it = os.scandir(d)
    except OSError as e:
        from .errors import io_message

        warnings.append(f"{d}: cannot list ({io_message(e)})")
        return []
    out = []
    with it:
        for i, e in enumerate(it):
            if i >= MAX_ENTRIES_PER_DIR:
                break
            p = os.path.join(d, e.name)
            if os.path.isdir(p) and not e.name.startswith("."):
                out.append(p)
    out.sort(key=os.fsencode)
    return out


def discover(
    dirs: List[Tuple[str, str]], parse: Callable[[str], Dict[str, Any]]
) -> Discovery:
    """Scan ``<dir>/<skill>/SKILL.md`` and one level of category folders. ``parse`` turns frontmatter
    YAML into a mapping or raises ValueError with the reason."""
    out = Discovery()
    seen = set()
    for path, label in dirs:
        try:
            canon = os.path.realpath(path, strict=True)
        except OSError:
            continue
        if not os.path.isdir(canon) or canon in seen:
            continue
        seen.add(canon)
        out.scanned.append(path)
        for entry in _subdirs(canon, out.warnings):
            if os.path.isfile(os.path.join(entry, "SKILL.md")):
                _read_skill(entry, label, out, parse)
            else:
                for sub in _subdirs(entry, out.warnings):
                    if os.path.isfile(os.path.join(sub, "SKILL.md")):
                        _read_skill(sub, label, out, parse)
    return out


def _read_skill(d: str, label: str, out: Discovery, parse) -> None:
    from .errors import io_message

    path = os.path.join(d, "SKILL.md")

    def warn(why: str) -> None:
        out.warnings.append(f"{path}: skipped ({why})")

    try:
        size = os.stat(path).st_size
        if size > MAX_SKILL_MD_BYTES:
            return warn(f"{size} bytes, over {MAX_SKILL_MD_BYTES}")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return warn(io_message(e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return warn("not UTF-8")
    try:
        fields = parse(split_frontmatter(text))
    except ValueError as e:
        return warn(str(e))
    name = fields.get("name")
    name = name.strip() if isinstance(name, str) else ""
    if not name:
        return warn("frontmatter has no `name`")
    metadata = fields.get("metadata") if isinstance(fields.get("metadata"), dict) else None
    source_url = None
    for k in ("repository", "source_url", "homepage", "source"):
        if k in fields:
            v = fields[k]
        else:
            v = metadata.get(k) if metadata is not None else None
        if isinstance(v, str) and (v.startswith("http://") or v.startswith("https://")):
            source_url = v
            break
    out.skills.append(InstalledSkill(name, d, label, source_url))
