"""The wasmtime-py engine settings that decide the compiled code, in one place.

``setup.py`` imports this file on its own (before the package is installed) to compile the component
at build time with exactly the settings ``Runtime`` later loads it with, so this module imports
nothing from the package.
"""

import wasmtime

#: The name the compiled artifact shipped in the package has (next to ``guest.wasm``).
ARTIFACT = "guest.cwasm"
#: Its description: the engine key and wasmtime-py version it was compiled for.
ARTIFACT_INFO = "guest.cwasm.json"


def config(epoch: bool) -> wasmtime.Config:
    """Component model, Cranelift optimizing for speed, epoch interruption when calls have a deadline."""
    c = wasmtime.Config()
    c.wasm_component_model = True
    c.cranelift_opt_level = "speed"
    c.epoch_interruption = epoch
    return c


def engine_key(epoch: bool) -> str:
    """The settings as a string: part of cache file names and of the shipped artifact's description."""
    return f"component=1;opt=speed;epoch={int(epoch)}"
