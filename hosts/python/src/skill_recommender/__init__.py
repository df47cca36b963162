"""skill-recommender for Python: the skill-recommender WebAssembly component run under wasmtime-py.

>>> from skill_recommender import Host
>>> host = Host(state_dir="~/.skill-recommender")      # doctest: +SKIP
>>> host.daily_gate()["run"]                              # doctest: +SKIP
"""

__version__ = "0.1.0"

from .errors import SkillRecommenderError  # noqa: E402
from .host import Host, get_runtime, trust_of_source  # noqa: E402
from .runtime import CONTRACT_VERSION, Limits  # noqa: E402
from .store import FileStateStore, MemoryStateStore, NullStateStore, resolve_state_dir  # noqa: E402

__all__ = [
    "Host",
    "SkillRecommenderError",
    "Limits",
    "CONTRACT_VERSION",
    "FileStateStore",
    "MemoryStateStore",
    "NullStateStore",
    "resolve_state_dir",
    "get_runtime",
    "trust_of_source",
    "__version__",
]
