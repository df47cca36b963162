"""On-disk cache of the precompiled component (same scheme as ``host-harness/src/cache.rs``).

Compiling the component takes hundreds of milliseconds; loading a precompiled artifact takes a few. The
artifact is native code, so it is never trusted blindly: the file name carries the component's hash,
wasmtime-py's version and a hash of the engine configuration, and the file carries a SHA-256 of its
payload that is checked before wasmtime sees it. A mismatch, truncation or read error means "rebuild",
never "use". The file names differ from the Rust host's (``-wasmtimepy<version>-``), so both hosts can
share one cache directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from typing import Any, Dict, Optional, Tuple

import wasmtime
from wasmtime.component import Component

from . import engine as engine_mod
from .store import atomic_write

MAGIC = b"SRCWASM1"


def wasmtime_version() -> str:
    try:
        from importlib.metadata import version

        return version("wasmtime")
    except Exception:  # pragma: no cover - metadata missing in odd installs
        return "unknown"


def default_cache_dir() -> Optional[str]:
    """``$SKILL_RECOMMENDER_CACHE_DIR``, else ``$XDG_CACHE_HOME`` or ``~/.cache``, + ``skill-recommender``."""
    d = os.environ.get("SKILL_RECOMMENDER_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):
        home = os.environ.get("HOME")
        if not home:
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "skill-recommender")


def cache_path(directory: str, component: bytes, engine_key: str) -> str:
    digest = hashlib.sha256(component).hexdigest()[:32]
    cfg = hashlib.sha256(
        f"{engine_key}|{platform.machine()}|{platform.system()}".encode()
    ).hexdigest()[:16]
    return os.path.join(directory, f"{digest}-wasmtimepy{wasmtime_version()}-{cfg}.cwasm")


def _verify(data: bytes) -> bytes:
    if len(data) < len(MAGIC) + 32 or not data.startswith(MAGIC):
        raise ValueError("bad header")
    body = data[len(MAGIC):]
    digest, payload = body[:32], body[32:]
    if hashlib.sha256(payload).digest() != digest:
        raise ValueError("checksum mismatch")
    return payload


def _wrap(payload: bytes) -> bytes:
    return MAGIC + hashlib.sha256(payload).digest() + payload


def _package_dir() -> str:
    """Where guest.cwasm is shipped (the tests point it elsewhere)."""
    return os.path.dirname(os.path.abspath(__file__))


def load_shipped(engine: wasmtime.Engine, engine_key: str) -> Tuple[Optional[Component], str]:
    """The component compiled when this package was built (``setup.py``: ``guest.cwasm`` beside
    ``guest.wasm``), if it was compiled for ``engine_key`` by this wasmtime-py version and wasmtime
    accepts it on this machine.

    Returns the component (or ``None``) and what happened: ``"used"``, ``"unused: <why>"`` (no artifact,
    or one for other settings: nothing to say) or ``"rejected: <why>"`` (wasmtime refused it — another
    CPU, say — and the caller compiles instead and says so).
    """
    here = _package_dir()
    artifact = os.path.join(here, engine_mod.ARTIFACT)
    try:
        with open(os.path.join(here, engine_mod.ARTIFACT_INFO), encoding="utf-8") as f:
            info = json.load(f)
    except (OSError, ValueError):
        return None, "unused: this package was built without a precompiled component"
    if info.get("engine_key") != engine_key:
        return None, "unused: these limits need other code (no deadline)"
    if info.get("wasmtime") != wasmtime_version():
        return None, f"rejected: compiled by wasmtime-py {info.get('wasmtime')}, this is {wasmtime_version()}"
    try:
        # The artifact was compiled by this package's build from the guest.wasm beside it, with the
        # settings of engine_key; wasmtime checks its version, target, settings and the CPU features it
        # needs against this engine and machine, and refuses a mismatch.
        return Component.deserialize_file(engine, artifact), "used"
    except (OSError, wasmtime.WasmtimeError) as e:
        return None, f"rejected: {str(e).splitlines()[0] if str(e) else type(e).__name__}"


def load(
    engine: wasmtime.Engine, component: bytes, directory: Optional[str], engine_key: str
) -> Tuple[Component, Dict[str, Any]]:
    """Load the component from the cache, or compile it (and cache it when possible).

    Returns the component and the outcome as ``status`` prints it:
    ``{"outcome": "hit|miss|rebuilt|disabled", "path", "written"?, "reason"?}``.
    """
    if directory is None:
        return Component(engine, component), {"outcome": "disabled", "path": None}
    path = cache_path(directory, component, engine_key)
    stale: Optional[str] = None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except (FileNotFoundError, NotADirectoryError):
        data = None
    except OSError as e:
        data = None
        stale = f"unreadable: {e}"
    if data is not None:
        try:
            payload = _verify(data)
        except ValueError as e:
            stale = str(e)
        else:
            try:
                # The payload is an artifact this host serialized for this engine configuration (the
                # file name pins component, wasmtime-py version and configuration) and its checksum
                # verified. A user who can write the cache directory could already replace this package.
                return Component.deserialize(engine, payload), {"outcome": "hit", "path": path}
            except wasmtime.WasmtimeError as e:
                stale = f"rejected by wasmtime: {e}"
    compiled = Component(engine, component)
    written = False
    try:
        payload = bytes(compiled.serialize())
        os.makedirs(directory, exist_ok=True)
        atomic_write(path, _wrap(payload))
        written = True
    except Exception:
        written = False
    if stale is not None:
        return compiled, {"outcome": "rebuilt", "path": path, "reason": stale}
    return compiled, {"outcome": "miss", "path": path, "written": written}
