#!/usr/bin/env python3
"""Assemble the bundle-scanning throughput set (BENCHMARKS.md, "Bundle scanning throughput"):

    python3 guest/examples/support/throughput_set.py OUT

writes three bundles, each a folder `scan_speed` and `scan_dump` read (SKILL.md, scripts/,
references/, files flat in each):

- OUT/ordinary:  ordinary text, from files any machine with this repository's toolchain holds: the
  Markdown files and then the Rust sources of the crates in Cargo.lock, as cargo unpacked them under
  ~/.cargo/registry/src (`cargo fetch --locked` first), in path order, up to 12 MiB.
- OUT/synthetic: the pipeline bench's bundle (host-harness/benches/common `bundle(bytes)`), 8 MiB:
  the same four repeated units in 256 KiB files.
- OUT/corpus:    the labelled corpus (tests/fixtures/skills/corpus, benign and malicious) as one
  bundle: every file but expect.json, SKILL.md files under references/, scripts under scripts/.

The same inputs give the same bytes (sorted walks, no time or randomness)."""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
OUT = sys.argv[1]
ORDINARY_BYTES = 12 << 20
SYNTHETIC_BYTES = 8 << 20


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def skill_md(bundle, what):
    write(
        os.path.join(OUT, bundle, "SKILL.md"),
        f"---\nname: throughput-{bundle}\ndescription: {what}\n---\n# Throughput set\n",
    )


def flat(rel):
    return rel.replace(os.sep, "__").replace("/", "__")


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None


def locked_crates():
    names, name = set(), None
    with open(os.path.join(ROOT, "Cargo.lock"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("name = "):
                name = line.split('"')[1]
            elif line.startswith("version = ") and name:
                names.add(name + "-" + line.split('"')[1])
                name = None
    return names


def ordinary():
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    src = os.path.join(home, "registry", "src")
    crates = locked_crates()
    dirs = {}
    for index in sorted(os.listdir(src)):
        for crate in sorted(os.listdir(os.path.join(src, index))):
            if crate in crates and crate not in dirs:
                dirs[crate] = os.path.join(src, index, crate)
    picked = []
    for ext in (".md", ".rs"):
        for crate in sorted(dirs):
            for base, subdirs, files in os.walk(dirs[crate]):
                subdirs.sort()
                for name in sorted(files):
                    if name.endswith(ext):
                        p = os.path.join(base, name)
                        picked.append((f"{crate}/{os.path.relpath(p, dirs[crate])}", p))
    total = 0
    for rel, p in picked:
        text = read_text(p)
        if not text or len(text) > 256 << 10:
            continue
        size = len(text.encode())
        if total + size > ORDINARY_BYTES:
            break
        total += size
        write(os.path.join(OUT, "ordinary", "references", flat(rel)), text)
    skill_md("ordinary", "Crate READMEs and sources as reference text.")
    return total


def synthetic():
    prose = ("This reference explains how the skill reads a PDF, finds tables and writes them to a "
             "spreadsheet. Never paste an API token into a prompt; keep credentials in the environment. "
             "The tokenizer splits text into pieces before counting.\n")
    shell = ("#!/bin/sh\nset -eu\nout=\"${1:-./build}\"\nmkdir -p \"$out\"\ncurl -fsSL "
             "https://example.com/data.csv -o \"$out/data.csv\"\necho done\n")
    python = ("import subprocess, json\n\ndef run(path):\n    result = subprocess.run([\"pdftotext\", "
              "path, \"-\"], capture_output=True, check=True)\n    return json.dumps({\"text\": "
              "result.stdout.decode()})\n")
    js = "export function total(rows) {\n  return rows.reduce((a, r) => a + Number(r.amount || 0), 0);\n}\n"
    write(os.path.join(OUT, "synthetic", "SKILL.md"),
          "---\nname: bench-skill\ndescription: Extracts tables from PDFs into spreadsheets.\n---\n"
          "# Bench skill\nUse scripts/extract.py.\n")
    per_file, total, i = 256 << 10, 0, 0
    while total < SYNTHETIC_BYTES:
        name, unit = [
            (f"references/doc-{i}.md", prose),
            (f"scripts/run-{i}.sh", shell),
            (f"scripts/extract_{i}.py", python),
            (f"scripts/total-{i}.js", js),
        ][i % 4]
        want = min(per_file, SYNTHETIC_BYTES - total)
        text = unit * -(-want // len(unit))
        total += len(text)
        write(os.path.join(OUT, "synthetic", name), text)
        i += 1
    return total


def corpus():
    root = os.path.join(ROOT, "tests", "fixtures", "skills", "corpus")
    total = 0
    for half in ("benign", "malicious"):
        for slug in sorted(os.listdir(os.path.join(root, half))):
            d = os.path.join(root, half, slug)
            for base, subdirs, files in os.walk(d):
                subdirs.sort()
                for name in sorted(files):
                    if name == "expect.json":
                        continue
                    p = os.path.join(base, name)
                    text = read_text(p)
                    if text is None:
                        continue
                    rel = flat(f"{half}/{slug}/{os.path.relpath(p, d)}")
                    sub = "references" if name.endswith((".md", ".txt")) else "scripts"
                    write(os.path.join(OUT, "corpus", sub, rel), text)
                    total += len(text.encode())
    skill_md("corpus", "The labelled corpus as one bundle.")
    return total


if __name__ == "__main__":
    for name, f in (("ordinary", ordinary), ("synthetic", synthetic), ("corpus", corpus)):
        print(f"{name}: {f()} bytes")
