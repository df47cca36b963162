"""State stores: where ``state.json`` and ``history.json`` live and how they are read and committed.

A port of ``host-harness/src/store.rs`` with the same semantics:

- the state directory is resolved in the original's order (flag, ``$SKILL_RECOMMENDER_STATE_DIR``,
  ``$HERMES_HOME/state/skill-recommender``, ``~/.hermes/state/skill-recommender`` if ``~/.hermes`` exists,
  ``~/.skill-recommender``; empty variables count as unset);
- a call is a transaction: :meth:`FileStateStore.begin` takes ``state.lock`` exclusively (``flock``, the
  same lock the Rust host takes, so both hosts can share a directory), the guest reads through the
  session and stages writes, and the host commits them only when the guest returned ``ok``;
- reads refuse files over the size cap and non-UTF-8 files — a corrupt file is never truncated, reset
  or replaced;
- writes are atomic: a temp file in the same directory, fsync, rename, fsync of the directory;
- legacy migration: when a document does not exist yet and the legacy ``data/`` directory holds a
  non-template version, it is copied once.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import tempfile
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from .errors import StoreError, io_message

DOCUMENTS = {"state": "state.json", "history": "history.json"}
DEFAULT_MAX_DOCUMENT_BYTES = 64 << 20
DEFAULT_LOCK_TIMEOUT = 30.0


def _template(doc: str):
    try:
        text = resources.files(__package__).joinpath("data", DOCUMENTS[doc]).read_text("utf-8")
        return json.loads(text)
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------------
# State directory resolution

SOURCE_NAMES = {
    "flag": "--state-dir",
    "env": "$SKILL_RECOMMENDER_STATE_DIR",
    "hermes_home": "$HERMES_HOME",
    "hermes_default": "~/.hermes",
    "home": "~/.skill-recommender",
}


def resolve_state_dir(
    flag: Optional[str] = None,
    env: Callable[[str], Optional[str]] = os.environ.get,
    home: Optional[str] = None,
) -> Tuple[str, str]:
    """Return ``(directory, source)``; ``source`` is how ``status`` names it (e.g. ``--state-dir``).

    Raises ``ValueError`` when there is no home directory and nothing else applies.
    """
    if flag is not None:
        return os.fspath(flag), SOURCE_NAMES["flag"]

    def var(name: str) -> Optional[str]:
        v = env(name)
        return v if v else None

    d = var("SKILL_RECOMMENDER_STATE_DIR")
    if d:
        return d, SOURCE_NAMES["env"]
    h = var("HERMES_HOME")
    if h:
        return os.path.join(h, "state", "skill-recommender"), SOURCE_NAMES["hermes_home"]
    if home is None:
        raise ValueError("no home directory: pass --state-dir or set SKILL_RECOMMENDER_STATE_DIR")
    hermes = os.path.join(home, ".hermes")
    if os.path.isdir(hermes):
        return os.path.join(hermes, "state", "skill-recommender"), SOURCE_NAMES["hermes_default"]
    return os.path.join(home, ".skill-recommender"), SOURCE_NAMES["home"]


def home_dir() -> Optional[str]:
    """``$HOME``, else the password database (like Rust's ``dirs::home_dir``)."""
    h = os.environ.get("HOME")
    if h:
        return h
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir or None
    except (ImportError, KeyError):
        return None


# ---------------------------------------------------------------------------------------------------
# File primitives


def atomic_write(path: str, data: bytes) -> None:
    """Replace ``path`` atomically: temp file in the same directory, fsync, rename, fsync the directory.

    The existing file's permissions are kept. On any failure the temp file is removed and the old file
    is left as it was.
    """
    directory = os.path.dirname(path) or "."
    name = os.path.basename(path) or "doc"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise StoreError(f"cannot create a temp file beside {path}: {io_message(e)}", path) from e
    op = "write"
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                try:
                    mode = os.stat(path).st_mode & 0o7777
                except FileNotFoundError:
                    mode = None
                if mode is not None:
                    op = "set permissions of"
                    os.fchmod(f.fileno(), mode)
                op = "fsync"
                os.fsync(f.fileno())
            op = "replace"
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        op = "fsync the directory of"
        dfd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError as e:
        raise StoreError(f"cannot {op} {path}: {io_message(e)}", path) from e


def read_capped(path: str, limit: int) -> Optional[str]:
    """Read a file as UTF-8 within a size cap; ``None`` if it does not exist."""
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        return None
    except OSError as e:
        raise StoreError(f"cannot stat {path}: {io_message(e)}", path) from e
    if size > limit:
        raise StoreError(
            f"{path} is {size} bytes, over the {limit}-byte limit; it was left as it is", path
        )
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise StoreError(f"cannot read {path}: {io_message(e)}", path) from e
    if len(data) > limit:
        raise StoreError(
            f"{path} is {len(data)} bytes, over the {limit}-byte limit; it was left as it is", path
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StoreError(
            f"{path} is not UTF-8 text; it was left as it is — repair it or move it aside", path
        ) from None


# ---------------------------------------------------------------------------------------------------
# Stores


class Session:
    """One transaction: ``read`` committed text, ``commit`` staged writes, ``close`` releases the lock."""

    def read(self, doc: str) -> Optional[str]:
        raise NotImplementedError

    def commit(self, writes: List[Tuple[str, str]]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class StateStore:
    """A persistence backend for the two documents (``state`` and ``history``)."""

    def begin(self) -> Session:
        raise NotImplementedError

    def location(self, doc: str) -> Optional[str]:
        return None


class NullStateStore(StateStore):
    """For calls that need no state (normalize, scan, validate): no files, no lock, no writes."""

    class _S(Session):
        def read(self, doc: str) -> Optional[str]:
            return None

        def commit(self, writes: List[Tuple[str, str]]) -> None:
            if writes:
                raise StoreError(
                    f"this call may not write state, but the component staged {DOCUMENTS[writes[0][0]]}"
                )

    def begin(self) -> Session:
        return NullStateStore._S()


class MemoryStateStore(StateStore):
    """An in-memory store (tests, agents that keep state elsewhere). Sessions are exclusive."""

    def __init__(self, state: Optional[str] = None, history: Optional[str] = None):
        self.docs: Dict[str, Optional[str]] = {"state": state, "history": history}
        self._lock = threading.Lock()

    def begin(self) -> Session:
        store = self
        store._lock.acquire()

        class _S(Session):
            closed = False

            def read(self, doc: str) -> Optional[str]:
                return store.docs[doc]

            def commit(self, writes: List[Tuple[str, str]]) -> None:
                for doc, text in writes:
                    store.docs[doc] = text

            def close(self) -> None:
                if not self.closed:
                    self.closed = True
                    store._lock.release()

        return _S()


class FileStateStore(StateStore):
    """The real store: ``state.json`` and ``history.json`` in a directory outside the skill."""

    def __init__(
        self,
        directory: "str | os.PathLike[str]",
        legacy_dir: "Optional[str | os.PathLike[str]]" = None,
        max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ):
        self.dir = os.fspath(directory)
        self.legacy_dir = os.fspath(legacy_dir) if legacy_dir is not None else None
        self.max_document_bytes = max_document_bytes
        self.lock_timeout = lock_timeout
        self.migrations: List[Tuple[str, str]] = []

    def path(self, doc: str) -> str:
        return os.path.join(self.dir, DOCUMENTS[doc])

    def location(self, doc: str) -> Optional[str]:
        return self.path(doc)

    def _lock(self) -> int:
        path = os.path.join(self.dir, "state.lock")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as e:
            raise StoreError(f"cannot open {path}: {io_message(e)}", path) from e
        start = time.monotonic()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except OSError as e:
                waited = time.monotonic() - start
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    os.close(fd)
                    raise StoreError(f"cannot lock {path}: {io_message(e)}", path) from e
                if waited >= self.lock_timeout:
                    os.close(fd)
                    raise StoreError(
                        f"{path} is held by another skill-recommender process; gave up after {waited:.3f}s",
                        path,
                    ) from e
                time.sleep(0.005)

    def _migrate(self, doc: str) -> None:
        if self.legacy_dir is None:
            return
        to = self.path(doc)
        frm = os.path.join(self.legacy_dir, DOCUMENTS[doc])
        if os.path.exists(to) or not os.path.isfile(frm) or _same_file(frm, to):
            return
        text = read_capped(frm, self.max_document_bytes) or ""

        def legacy(message: str) -> StoreError:
            return StoreError(
                f"legacy file {frm} cannot be migrated: {message}; it was left as it is", frm
            )

        try:
            value = json.loads(text)
        except ValueError as e:
            raise legacy(f"not valid JSON ({e})") from None
        if not isinstance(value, dict):
            raise legacy("not a JSON object")
        if _template(doc) == value:
            return  # an untouched template carries nothing to migrate
        atomic_write(to, text.encode("utf-8"))
        self.migrations.append((frm, to))

    def begin(self) -> Session:
        try:
            os.makedirs(self.dir, exist_ok=True)
        except OSError as e:
            raise StoreError(
                f"cannot create the state directory {self.dir}: {io_message(e)}", self.dir
            ) from e
        fd = self._lock()
        try:
            self._migrate("state")
            self._migrate("history")
        except BaseException:
            os.close(fd)
            raise
        return _FileSession(self, fd)


class _FileSession(Session):
    def __init__(self, store: FileStateStore, fd: int):
        self.store = store
        self.fd: Optional[int] = fd

    def read(self, doc: str) -> Optional[str]:
        return read_capped(self.store.path(doc), self.store.max_document_bytes)

    def commit(self, writes: List[Tuple[str, str]]) -> None:
        for doc, text in writes:
            atomic_write(self.store.path(doc), text.encode("utf-8"))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
