"""Build hook: copy the component (and the state templates) into the package, and compile it.

The component is built by cargo, not by pip: run `cargo build -p host-harness` in the repository root
first. The wasm is looked up in this order:
  1. $SKILL_RECOMMENDER_GUEST_WASM
  2. <repo>/target/guest-wasm/guest-preinit.wasm                        (the component pre-initialized:
     its rule tables and lexicon already built; what host-harness/build.rs writes)
  3. <repo>/target/guest-wasm/wasm32-wasip2/wasm-release/guest.wasm   (the plain component)
  4. src/skill_recommender/guest.wasm                                   (already in place, e.g. an sdist)

Then it is compiled with wasmtime-py (a build requirement, the same version the package depends on)
and serialized into the package as guest.cwasm, so no run compiles it: not the first, not one with an
empty or read-only home. wasmtime-py's engine differs from the Rust CLI's, so the artifact is made here,
with the settings the runtime loads it with (skill_recommender/engine.py). The runtime checks it fits
(wasmtime refuses an artifact for another CPU or version) and compiles instead when it does not. If
wasmtime-py cannot be imported here, the package is built without it and says so.
"""

import hashlib
import importlib.util
import json
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PKG = os.path.join(HERE, "src", "skill_recommender")


def _first(*paths):
    for p in paths:
        if p and os.path.isfile(p):
            return p
    return None


class BuildWithComponent(build_py):
    def run(self):
        super().run()
        wasm = _first(
            os.environ.get("SKILL_RECOMMENDER_GUEST_WASM"),
            os.path.join(REPO, "target", "guest-wasm", "guest-preinit.wasm"),
            os.path.join(REPO, "target", "guest-wasm", "wasm32-wasip2", "wasm-release", "guest.wasm"),
            os.path.join(PKG, "guest.wasm"),
        )
        if wasm is None:
            raise SystemExit(
                "skill-recommender: the component guest.wasm was not found.\n"
                f"  looked for {os.path.join(REPO, 'target/guest-wasm/wasm32-wasip2/wasm-release/guest.wasm')}\n"
                "  Build it first, in the repository root:   cargo build -p host-harness\n"
                "  (or point SKILL_RECOMMENDER_GUEST_WASM at a built component), then pip install again."
            )
        with open(wasm, "rb") as f:
            if f.read(8) != b"\0asm\x0d\x00\x01\x00":
                raise SystemExit(f"skill-recommender: {wasm} is not a WebAssembly component")
        out = os.path.join(self.build_lib, "skill_recommender")
        os.makedirs(os.path.join(out, "data"), exist_ok=True)
        shutil.copyfile(wasm, os.path.join(out, "guest.wasm"))
        _precompile(os.path.join(out, "guest.wasm"), out)
        for name in ("state.json", "history.json", "sample_candidates.json"):
            src = _first(os.path.join(REPO, "data", name), os.path.join(PKG, "data", name))
            if src is None:
                raise SystemExit(f"skill-recommender: the template data/{name} was not found in {REPO}")
            shutil.copyfile(src, os.path.join(out, "data", name))
        # The guest's platform vocabulary: the host decides with it whether to look commands up.
        src = _first(os.path.join(REPO, "guest", "rules", "fit.json"), os.path.join(PKG, "data", "fit.json"))
        if src is None:
            raise SystemExit(f"skill-recommender: guest/rules/fit.json was not found in {REPO}")
        shutil.copyfile(src, os.path.join(out, "data", "fit.json"))


def _precompile(wasm_path, out):
    """Compile the component for the default limits (a deadline, so epoch interruption) and write
    guest.cwasm and guest.cwasm.json beside it."""
    spec = importlib.util.spec_from_file_location("_sr_engine", os.path.join(PKG, "engine.py"))
    try:
        engine_mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(engine_mod)
        import wasmtime
        from importlib.metadata import version
        from wasmtime.component import Component

        with open(wasm_path, "rb") as f:
            wasm = f.read()
        engine = wasmtime.Engine(engine_mod.config(epoch=True))
        artifact = bytes(Component(engine, wasm).serialize())
    except Exception as e:  # no wasmtime-py in the build environment, or it failed: compile at run time
        print(f"skill-recommender: not precompiling the component ({e}); the first run will compile it")
        return
    with open(os.path.join(out, engine_mod.ARTIFACT), "wb") as f:
        f.write(artifact)
    info = {
        "engine_key": engine_mod.engine_key(True),
        "wasmtime": version("wasmtime"),
        "component_sha256": hashlib.sha256(wasm).hexdigest(),
    }
    with open(os.path.join(out, engine_mod.ARTIFACT_INFO), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=2)


setup(cmdclass={"build_py": BuildWithComponent})
