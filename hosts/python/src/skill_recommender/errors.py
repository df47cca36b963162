"""Host-side errors: each has a stable ``code``, a process exit code and the JSON form agents read.

The codes, exit codes, messages and JSON shape are the Rust host's (``host-harness/src/error.rs``), so an
agent sees the same ``{"error": {...}}`` object whichever host runs the component.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional


def io_message(e: BaseException) -> str:
    """An OSError as Rust's io::Error displays it: ``No such file or directory (os error 2)``."""
    if isinstance(e, OSError) and e.errno is not None and e.strerror:
        return f"{e.strerror} (os error {e.errno})"
    return str(e)


class SkillRecommenderError(Exception):
    """Why a call failed. In every case the state files are as they were before the call."""

    code = "internal"
    exit_code = 1

    def __init__(self, message: str, details: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.message = message
        self.details: Dict[str, Any] = details or {}

    def to_json(self) -> Dict[str, Any]:
        """``{"error": {"code", "message", "exit_code", ...details}}``."""
        e: Dict[str, Any] = {"code": self.code, "message": self.message, "exit_code": self.exit_code}
        e.update(self.details)
        return {"error": e}


class InvalidInput(SkillRecommenderError):
    """An argument is invalid (exit 3); ``field`` names it."""

    code = "invalid_input"
    exit_code = 3

    def __init__(self, field: str, message: str):
        super().__init__(f"invalid {field}: {message}", {"field": field})
        self.field = field


class CorruptDocument(SkillRecommenderError):
    """A state file cannot be used; it was left untouched (exit 4)."""

    code = "corrupt_state"
    exit_code = 4

    def __init__(self, file: str, path: Optional[str], message: str):
        where = path if path is not None else file
        super().__init__(
            f"{where} is unusable: {message}; it was left as it is — repair it or move it aside, then retry",
            {"file": file, "path": path},
        )


class Refused(SkillRecommenderError):
    """The command is not allowed in the current daily state (exit 6)."""

    code = "refused_transition"
    exit_code = 6

    def __init__(self, command: str, current: str, allowed_from: List[str], hint: str):
        super().__init__(
            f"{command} is not allowed while daily_rec_status is {current} "
            f"(allowed from: {', '.join(allowed_from)}); {hint}",
            {"command": command, "current": current, "allowed_from": list(allowed_from), "hint": hint},
        )


class StoreError(SkillRecommenderError):
    """The state store failed (exit 4). ``path`` names the file concerned, if any."""

    code = "state_store"
    exit_code = 4

    def __init__(self, message: str, path: Optional[str] = None):
        super().__init__(message, {"path": path})
        self.path = path


class SandboxLimit(SkillRecommenderError):
    """The guest hit a sandbox limit (exit 5): ``deadline``, ``fuel`` or ``memory``."""

    code = "sandbox_limit"
    exit_code = 5
    TEXT = {
        "deadline": "the call ran past its time limit",
        "fuel": "the call used up its instruction budget",
        "memory": "the call tried to use more memory than allowed",
    }

    def __init__(self, kind: str):
        super().__init__(f"sandbox limit: {self.TEXT[kind]}", {"limit": kind})
        self.kind = kind


class ComponentTrap(SkillRecommenderError):
    """The guest trapped: a bug in the component (exit 1)."""

    code = "component_trap"
    exit_code = 1

    def __init__(self, message: str, guest_stderr: str):
        super().__init__(f"the component trapped: {message}", {"guest_stderr": guest_stderr})


class ComponentLoad(SkillRecommenderError):
    """The component could not be loaded (wrong contract version, compile failure) (exit 1)."""

    code = "component_load"
    exit_code = 1

    def __init__(self, message: str):
        super().__init__(f"cannot load the component: {message}", {})


def display_path(p: "os.PathLike[str] | str") -> str:
    return os.fspath(p)
