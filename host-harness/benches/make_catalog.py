#!/usr/bin/env python3
"""Build a catalog of N skill bundles for the whole-process benchmark of `scan-bundle --from-dir`.

    python3 host-harness/benches/make_catalog.py N DIR [--seed S]

Every bundle is one of the scanner fixtures (tests/fixtures/skills/{benign,malicious}/*), varied so
that no two are the same bytes: its own name (folder and SKILL.md `name`), a sentence added to the
description, and in most of them a references/notes-<i>.md of 1-40 KB of prose or a scripts/run-<i>.sh
(like real skills, most of the text is documentation). About one in nine is a malicious fixture, so
the scan meets findings and every policy. Bundles are laid out as a registry mirror would be: DIR/<owner>/<skill>/,
with about 20 skills per owner. Deterministic for a given seed.
"""

import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "skills")

PROSE = (
    "This reference explains how the skill works step by step. It reads the input the user points at, "
    "checks that the format is what it expects, and writes the result next to it. Keep credentials out "
    "of prompts; the skill never needs them. When something fails, the message names the file and the "
    "line, and the user can run the step again.\n"
)
SCRIPT = "#!/bin/sh\nset -eu\nout=\"${1:-./build}\"\nmkdir -p \"$out\"\necho \"writing to $out\"\n"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n, dest = int(sys.argv[1]), sys.argv[2]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 17
    rnd = random.Random(seed)
    benign = sorted(os.path.join(FIXTURES, "benign", d) for d in os.listdir(os.path.join(FIXTURES, "benign")))
    malicious = sorted(os.path.join(FIXTURES, "malicious", d) for d in os.listdir(os.path.join(FIXTURES, "malicious")))
    benign = [d for d in benign if os.path.isdir(d)]
    malicious = [d for d in malicious if os.path.isdir(d)]
    os.makedirs(dest, exist_ok=True)
    total = 0
    for i in range(n):
        src = rnd.choice(malicious) if rnd.random() < 0.11 else rnd.choice(benign)
        base = os.path.basename(src)
        name = f"{base}-{i:05d}"
        out = os.path.join(dest, f"owner-{i // 20:03d}", name)
        shutil.copytree(src, out, ignore=shutil.ignore_patterns("expect.json"))
        md = os.path.join(out, "SKILL.md")
        text = open(md, encoding="utf-8").read()
        text = text.replace(f"name: {base}", f"name: {name}", 1)
        text += f"\n\nCatalog entry {i}: maintained by owner {i // 20}.\n"
        open(md, "w", encoding="utf-8").write(text)
        kind = rnd.random()
        if kind < 0.6:
            os.makedirs(os.path.join(out, "references"), exist_ok=True)
            size = rnd.randint(1, 40) * 1024
            open(os.path.join(out, "references", f"notes-{i}.md"), "w").write((PROSE * (size // len(PROSE) + 1))[:size])
        elif kind < 0.8:
            os.makedirs(os.path.join(out, "scripts"), exist_ok=True)
            p = os.path.join(out, "scripts", f"run-{i}.sh")
            open(p, "w").write(SCRIPT)
            os.chmod(p, 0o755)
        for dirpath, _, files in os.walk(out):
            total += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
    print(f"{n} bundles, {total:,} bytes in {dest}")


if __name__ == "__main__":
    main()
