"""The wasmtime-py embedding: compile (or load from cache) once per process, one fresh Store per call.

The component gets exactly what the Rust host gives it (``host-harness/src/harness.rs``):

- ``wasi:io`` and ``wasi:cli`` as *stubs* written here, backed by nothing: no environment, no
  arguments, stdin closed, stdout discarded, no terminal; stderr goes into a bounded in-memory buffer
  that is used only for trap messages. ``wasi:cli/exit`` traps. Any other ``wasi:io``/``wasi:cli``
  function traps if called. Filesystem, sockets, clocks, random and http are not provided at all, so a
  component importing them is refused at load time, naming the import.
- ``state-store``: loads are served from the store session (or from a document staged earlier in the
  same call); saves are staged and committed only when the export returns ``ok``.
- limits per call: a wall-clock deadline that grows with the call's input (epoch interruption), a
  memory cap, a stderr cap.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from importlib import resources
from typing import Any, Callable, Dict, List, Optional, Tuple

import wasmtime
from wasmtime import Config, Engine, Store, WasmtimeError
from wasmtime.component import (
    Component,
    ComponentInstanceType,
    FuncType,
    Linker,
    Record,
    ResourceHost,
    ResourceType,
    Variant,
)

from . import cache as cache_mod
from .errors import (
    ComponentLoad,
    ComponentTrap,
    CorruptDocument,
    InvalidInput,
    Refused,
    SandboxLimit,
    SkillRecommenderError,
    StoreError,
)
from .store import DOCUMENTS, StateStore

#: The WIT package version this host speaks (``wit/recommender.wit``).
CONTRACT_VERSION = "0.1.0"
PACKAGE = "skill-recommender:core"

# Host resource type ids for the WASI stubs.
_RT = {"pollable": 1, "error": 2, "input-stream": 3, "output-stream": 4, "terminal-input": 5, "terminal-output": 6}
# The interface that defines each resource (others only re-export it with `use`).
_RESOURCE_HOME = {
    "wasi:io/poll": ["pollable"],
    "wasi:io/error": ["error"],
    "wasi:io/streams": ["input-stream", "output-stream"],
    "wasi:cli/terminal-input": ["terminal-input"],
    "wasi:cli/terminal-output": ["terminal-output"],
}
_STDIN, _STDOUT, _STDERR = 0, 1, 2

EPOCH_TICK = 0.01  # seconds
_EPOCH_TICK_US = 10_000  # EPOCH_TICK in microseconds, for exact tick counts

#: Wall time per call on a small input, in seconds (host-harness ``Limits::default().deadline``).
DEFAULT_DEADLINE = 10.0
#: Extra wall time per started MiB of input, in seconds (host-harness ``Limits::default().deadline_per_mib``).
DEFAULT_DEADLINE_PER_MIB = 1.0
MIB = 1 << 20


class Limits:
    """Per-call limits (the Rust host's defaults).

    ``deadline``: seconds of wall time per call (``None``: no deadline); ``deadline_per_mib``: seconds
    added per started MiB of the call's input (the candidates JSON, the normalize or render input, or a
    bundle's file contents), so a large input gets more time while a runaway on a small one still stops
    after ``deadline`` — see :meth:`deadline_for`.
    """

    def __init__(
        self,
        deadline: Optional[float] = DEFAULT_DEADLINE,
        max_memory_bytes: int = 512 << 20,
        max_document_bytes: int = 64 << 20,
        max_guest_stderr_bytes: int = 64 << 10,
        max_input_bytes: int = 64 << 20,
        deadline_per_mib: float = DEFAULT_DEADLINE_PER_MIB,
    ):
        self.deadline = deadline
        self.deadline_per_mib = deadline_per_mib
        self.max_memory_bytes = max_memory_bytes
        self.max_document_bytes = max_document_bytes
        self.max_guest_stderr_bytes = max_guest_stderr_bytes
        self.max_input_bytes = max_input_bytes

    def deadline_for(self, input_bytes: int) -> Optional[float]:
        """The deadline in seconds for a call with ``input_bytes`` of input (host-harness
        ``Limits::deadline_for``): ``deadline`` plus ``deadline_per_mib`` per started MiB — with the
        defaults 0 bytes → 10 s, 1 byte to 1 MiB → 11 s, 1 MiB + 1 → 12 s. ``None`` without a deadline."""
        if self.deadline is None:
            return None
        mib = -(-max(0, input_bytes) // MIB)  # ceiling division
        return self.deadline + self.deadline_per_mib * mib

    def deadline_ticks(self, input_bytes: int) -> Optional[int]:
        """The deadline in epoch ticks (at least one), rounded down like host-harness ``deadline_ticks``."""
        d = self.deadline_for(input_bytes)
        if d is None:
            return None
        return max(1, round(d * 1_000_000) // _EPOCH_TICK_US)


class _Call:
    """What the import functions see during one call (one per thread: a Store is single-threaded)."""

    def __init__(self, session, max_document_bytes: int, max_stderr: int):
        self.session = session
        self.staged: List[Tuple[str, str]] = []
        self.store_error: Optional[StoreError] = None
        self.max_document_bytes = max_document_bytes
        self.max_stderr = max_stderr
        self.stderr = bytearray()
        self.exited: Optional[str] = None
        # Whether host-env.find-commands looks at the PATH in this call (the agent's platform is ours).
        self.lookup_commands = False


_current = threading.local()


def _call() -> _Call:
    c = getattr(_current, "call", None)
    if c is None:  # pragma: no cover - only reachable if a guest outlives its call
        raise RuntimeError("no skill-recommender call in progress on this thread")
    return c


# --------------------------------------------------------------------------------------------------
# state-store


def _state_load(_store, doc: str):
    c = _call()
    for d, text in c.staged:
        if d == doc:
            return Variant("ok", text)
    try:
        return Variant("ok", c.session.read(doc))
    except StoreError as e:
        c.store_error = e
        return Variant("err", e.message)


def _state_save(_store, doc: str, text: str):
    c = _call()
    size = len(text.encode("utf-8"))
    if size > c.max_document_bytes:
        e = StoreError(
            f"the component staged a {size}-byte {DOCUMENTS[doc]}, over the {c.max_document_bytes}-byte limit"
        )
        c.store_error = e
        return e.message  # result<_, string> lowers untagged: a str is the error case
    c.staged = [(d, t) for d, t in c.staged if d != doc]
    c.staged.append((doc, text))
    return None


# --------------------------------------------------------------------------------------------------
# host-env


def _find_commands(_store, names):
    from .commands import find_commands

    return find_commands(list(names), _call().lookup_commands)


# --------------------------------------------------------------------------------------------------
# wasi:io / wasi:cli stubs (an empty context)


def _rep(store, res) -> int:
    """The host rep behind a borrowed handle; the borrow is released before the import returns
    (the component model requires it: "borrow handles still remain at the end of the call")."""
    try:
        return res.to_host(store).rep
    except Exception:
        return -1
    finally:
        try:
            res.drop(store)
        except Exception:
            pass


def _check_write(store, this):
    _rep(store, this)
    return 4096


def _write(store, this, contents):
    if _rep(store, this) == _STDERR:
        c = _call()
        room = c.max_stderr - len(c.stderr)
        if room > 0:
            c.stderr += bytes(contents[:room])
    return Variant("ok")  # stdout: discarded, like the Rust host's sink


def _flush(store, this):
    _rep(store, this)
    return Variant("ok")


def _subscribe(store, this):
    _rep(store, this)
    return ResourceHost.own(0, _RT["pollable"])


def _block(store, this):
    _rep(store, this)
    return None


def _exit(store, status):
    _call().exited = "the component called wasi:cli/exit"
    raise WasmtimeError("the component called wasi:cli/exit")


def _trap(name: str) -> Callable[..., Any]:
    def f(store, *args):
        raise WasmtimeError(f"{name} is not provided by this host")

    return f


_STUBS: Dict[str, Dict[str, Callable[..., Any]]] = {
    "wasi:io/poll": {"[method]pollable.block": _block},
    "wasi:io/error": {},
    "wasi:io/streams": {
        "[method]output-stream.check-write": _check_write,
        "[method]output-stream.write": _write,
        "[method]output-stream.blocking-write-and-flush": _write,
        "[method]output-stream.flush": _flush,
        "[method]output-stream.blocking-flush": _flush,
        "[method]output-stream.subscribe": _subscribe,
    },
    "wasi:cli/environment": {
        "get-environment": lambda store: [],
        "get-arguments": lambda store: [],
        "initial-cwd": lambda store: None,
    },
    "wasi:cli/exit": {"exit": _exit},
    "wasi:cli/stdin": {"get-stdin": lambda store: ResourceHost.own(_STDIN, _RT["input-stream"])},
    "wasi:cli/stdout": {"get-stdout": lambda store: ResourceHost.own(_STDOUT, _RT["output-stream"])},
    "wasi:cli/stderr": {"get-stderr": lambda store: ResourceHost.own(_STDERR, _RT["output-stream"])},
    "wasi:cli/terminal-input": {},
    "wasi:cli/terminal-output": {},
    "wasi:cli/terminal-stdin": {"get-terminal-stdin": lambda store: None},
    "wasi:cli/terminal-stdout": {"get-terminal-stdout": lambda store: None},
    "wasi:cli/terminal-stderr": {"get-terminal-stderr": lambda store: None},
}


def _no_dtor(store, rep) -> None:
    return None


# --------------------------------------------------------------------------------------------------
# The epoch ticker: runs only while calls are in progress.


class _Ticker:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.active = 0
        self.cv = threading.Condition()
        self.thread: Optional[threading.Thread] = None

    def _run(self) -> None:
        while True:
            with self.cv:
                while self.active == 0:
                    self.cv.wait()
            self.engine.increment_epoch()
            time.sleep(EPOCH_TICK)

    def enter(self) -> None:
        with self.cv:
            self.active += 1
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="skill-recommender-epoch", daemon=True)
                self.thread.start()
            self.cv.notify_all()

    def leave(self) -> None:
        with self.cv:
            self.active -= 1


# --------------------------------------------------------------------------------------------------


def bundled_component() -> bytes:
    """The component copied into this package at build time."""
    try:
        return resources.files(__package__).joinpath("guest.wasm").read_bytes()
    except (FileNotFoundError, OSError) as e:
        raise ComponentLoad(
            "guest.wasm is missing from the skill_recommender package; rebuild it from the repository "
            "after `cargo build -p host-harness` (see hosts/python/README.md)"
        ) from e


class Runtime:
    """A compiled, linked component, ready for calls. Thread-safe: every call gets its own Store."""

    def __init__(
        self,
        component: Optional[bytes] = None,
        cache_dir: Optional[str] = None,
        no_cache: bool = False,
        limits: Optional[Limits] = None,
    ):
        self.limits = limits or Limits()
        wasm = component if component is not None else bundled_component()
        config = Config()
        config.wasm_component_model = True
        config.cranelift_opt_level = "speed"
        config.epoch_interruption = self.limits.deadline is not None
        self.engine = Engine(config)
        engine_key = f"component=1;opt=speed;epoch={int(self.limits.deadline is not None)}"
        directory = None if no_cache else (cache_dir or cache_mod.default_cache_dir())
        try:
            self.component, self.cache = cache_mod.load(self.engine, wasm, directory, engine_key)
        except WasmtimeError as e:
            raise ComponentLoad(f"compiling the component: {e}") from None
        ty = self.component.type
        imports = ty.imports(self.engine)
        exports = ty.exports(self.engine)
        self.imports: List[str] = list(imports.keys())
        self.exports: List[str] = list(exports.keys())
        self._check_contract()
        self.linker = self._link(imports)
        self._funcs: Dict[Tuple[str, str], Any] = {}
        self._ticker = _Ticker(self.engine) if self.limits.deadline is not None else None

    def _check_contract(self) -> None:
        prefix = f"{PACKAGE}/lifecycle@"
        if f"{prefix}{CONTRACT_VERSION}" in self.exports:
            return
        found = next((e[len(prefix):] for e in self.exports if e.startswith(prefix)), None)
        if found is not None:
            raise ComponentLoad(
                f"the component implements contract {PACKAGE}@{found}, but this host expects "
                f"@{CONTRACT_VERSION}; use a matching host and component"
            )
        raise ComponentLoad(
            f"not a skill-recommender component: it exports no {prefix}* (exports: {', '.join(self.exports)})"
        )

    def _link(self, imports) -> Linker:
        linker = Linker(self.engine)
        with linker.root() as root:
            for name, ext in imports.items():
                base = name.split("@", 1)[0]
                if base == f"{PACKAGE}/types":
                    continue
                if base == f"{PACKAGE}/state-store":
                    with root.add_instance(name) as inst:
                        inst.add_func("load", _state_load)
                        inst.add_func("save", _state_save)
                    continue
                if base == f"{PACKAGE}/host-env":
                    with root.add_instance(name) as inst:
                        inst.add_func("find-commands", _find_commands)
                    continue
                if base not in _STUBS:
                    raise ComponentLoad(
                        f"component imports instance `{name}`, but this host provides only wasi:io, "
                        "wasi:cli, the state store and host-env (no files, sockets, clocks or randomness)"
                    )
                stubs = _STUBS[base]
                item = ext.ty
                with root.add_instance(name) as inst:
                    for res in _RESOURCE_HOME.get(base, []):
                        inst.add_resource(res, ResourceType.host(_RT[res]), _no_dtor)
                    if isinstance(item, ComponentInstanceType):
                        for fname, fext in item.exports(self.engine).items():
                            if isinstance(fext.ty, FuncType):
                                inst.add_func(fname, stubs.get(fname) or _trap(f"{base}#{fname}"))
        return linker

    # ----------------------------------------------------------------------------------------------

    def call(
        self,
        store_backend: StateStore,
        interface: str,
        func: str,
        args: List[Any],
        input_bytes: int = 0,
        lookup_commands: bool = False,
    ) -> str:
        """Run one export as one transaction; return its JSON text or raise a SkillRecommenderError.
        ``input_bytes``: the size of the call's input in UTF-8 bytes (the candidates JSON, the normalize or
        render input, a bundle's file contents; 0 for the rest), which sets the deadline
        (:meth:`Limits.deadline_for`)."""
        session = store_backend.begin()
        try:
            c = _Call(session, self.limits.max_document_bytes, self.limits.max_guest_stderr_bytes)
            c.lookup_commands = lookup_commands
            result, err, elapsed = self._invoke(c, interface, func, args, input_bytes)
            if err is not None:
                raise self._classify(err, c, elapsed, self.limits.deadline_for(input_bytes)) from None
            if isinstance(result, str):
                session.commit(c.staged)
                return result
            raise self._guest_error(result, c, store_backend)
        finally:
            session.close()

    def _invoke(self, c: _Call, interface: str, func: str, args: List[Any], input_bytes: int = 0):
        store = Store(self.engine)
        store.set_limits(memory_size=self.limits.max_memory_bytes)
        ticks = self.limits.deadline_ticks(input_bytes)
        ticking = self._ticker is not None and ticks is not None
        if ticking:
            store.set_epoch_deadline(ticks)
            self._ticker.enter()
        _current.call = c
        start = time.monotonic()
        try:
            instance = self.linker.instantiate(store, self.component)
            iface = instance.get_export_index(store, f"{PACKAGE}/{interface}@{CONTRACT_VERSION}")
            idx = instance.get_export_index(store, func, iface) if iface is not None else None
            f = instance.get_func(store, idx) if idx is not None else None
            if f is None:
                raise ComponentLoad(f"the component does not export {interface}#{func}")
            result = f(store, *args)
            return result, None, time.monotonic() - start
        except WasmtimeError as e:
            return None, e, time.monotonic() - start
        finally:
            _current.call = None
            if ticking:
                self._ticker.leave()

    def _classify(
        self, err: WasmtimeError, c: _Call, elapsed: float, deadline: Optional[float]
    ) -> SkillRecommenderError:
        text = str(err)
        stderr = c.stderr.decode("utf-8", "replace")
        if "wasm trap: interrupt" in text or (deadline is not None and elapsed >= deadline and "interrupt" in text):
            return SandboxLimit("deadline")
        if "all fuel consumed" in text:
            return SandboxLimit("fuel")
        if "memory allocation of" in stderr and "failed" in stderr:
            return SandboxLimit("memory")
        return ComponentTrap(text, stderr)

    def _guest_error(self, v: Any, c: _Call, backend: StateStore) -> SkillRecommenderError:
        if not isinstance(v, Variant):
            return ComponentLoad(f"the component returned an unexpected value: {v!r}")
        p = v.payload
        if v.tag == "invalid-input":
            return InvalidInput(p.field, p.message)
        if v.tag == "corrupt-document":
            doc = getattr(p, "document")
            return CorruptDocument(DOCUMENTS[doc], backend.location(doc), p.message)
        if v.tag == "refused":
            return Refused(p.command, p.current, list(getattr(p, "allowed-from")), p.hint)
        if v.tag == "store":
            if c.store_error is not None:
                return c.store_error
            return ComponentLoad(f"the component reported a store error the host did not raise: {p}")
        return ComponentLoad(f"the component returned an unknown error case {v.tag}")


def record(**fields: Any) -> Record:
    """A WIT record value; keyword names use ``_`` for ``-`` (``host_timezone`` → ``host-timezone``)."""
    r = Record()
    for k, v in fields.items():
        setattr(r, k.replace("_", "-"), v)
    return r


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
