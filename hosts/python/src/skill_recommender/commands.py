"""The host's side of ``host-env.find-commands`` (host-harness ``src/commands.rs``): which of the programs
candidates declare as prerequisites are on this machine's PATH. Looked up only when the agent runs on
this host's platform (or does not say); plain program names only, at most 256 per call."""

from __future__ import annotations

import json
import re
import shutil
import sys
from functools import lru_cache
from typing import Dict, List, Optional

MAX_NAMES = 256
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


def _key(s: str) -> str:
    return str(s).strip().lower().replace(" ", "_").replace("-", "_")


@lru_cache(maxsize=1)
def _platforms() -> Dict[str, str]:
    """alias -> canonical platform, from the guest's own vocabulary (guest/rules/fit.json, packaged)."""
    from importlib import resources

    text = resources.files(__package__).joinpath("data", "fit.json").read_text("utf-8")
    out: Dict[str, str] = {}
    for canonical, aliases in json.loads(text)["platforms"].items():
        for a in [canonical, *aliases]:
            out[_key(a)] = canonical
    return out


def canonical_platform(name: str) -> Optional[str]:
    """The canonical platform a name means (as ``guest::fit::platform``), or None."""
    v = _platforms()
    k = _key(name)
    if k in v:
        return v[k]
    stem = k.rstrip("0123456789")
    return v.get(stem) if stem and stem != k else None


def looks_up_for(platform: Optional[str]) -> bool:
    """Whether the host should look commands up for an agent that states ``platform``."""
    p = (platform or "").strip()
    return p == "" or canonical_platform(p) == canonical_platform(sys.platform)


def on_path(name: str) -> bool:
    return _NAME.fullmatch(name) is not None and shutil.which(name) is not None


def find_commands(names: List[str], lookup: bool) -> Optional[List[bool]]:
    """The answer to one ``find-commands`` call (None: not looked up)."""
    if not lookup or len(names) > MAX_NAMES:
        return None
    return [on_path(n) for n in names]
