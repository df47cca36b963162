"""Build hook: copy the component (and the state templates) into the package.

The component is built by cargo, not by pip: run `cargo build -p host-harness` in the repository root
first. The wasm is looked up in this order:
  1. $SKILL_RECOMMENDER_GUEST_WASM
  2. <repo>/target/guest-wasm/wasm32-wasip2/wasm-release/guest.wasm   (what host-harness/build.rs writes)
  3. src/skill_recommender/guest.wasm                                   (already in place, e.g. an sdist)
"""

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


setup(cmdclass={"build_py": BuildWithComponent})
