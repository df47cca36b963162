#!/usr/bin/env python3
"""Whole-process benchmark: each command as a user meets it (a fresh process, reading its files, writing
its output), beside a bare `python3 -c pass` and the reconstructed original Python helper measured in
the same run, so the ratios hold across machines. Writes the table BENCHMARKS.md shows.

    cargo build --release -p host-harness
    python3 host-harness/benches/whole_process.py [--bin target/release/skill-recommender] [--runs 10]
        [--only NAME [--only NAME ...]] [--work DIR]

Needs hyperfine (Debian: apt-get install hyperfine) and GNU time (/usr/bin/time) for max RSS. Inputs
are generated into the work directory (default: target/bench-whole-process): candidates as the
acceptance check makes them (1,000 and 100,000; the larger file is 44 MB) and catalogs of 100 and 1,000
skill bundles (make_catalog.py). Every command's output goes to /dev/null.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NOW = "2026-11-29T02:00:00Z"


def candidates(path, n):
    """The acceptance check's generator (same seed, same shape): 100,000 of them are 44 MB."""
    if os.path.exists(path):
        return
    rnd = random.Random(7)
    cats = ["pdf", "devops", "finance", "travel", "content-creation", "audio", "coding", "education"]
    items = [
        {
            "skill_id": f"clawhub:s{i}",
            "name": f"skill-{i}",
            "source": "clawhub",
            "url": f"https://clawhub.ai/o/s{i}",
            "description": f"Skill number {i} that helps with {rnd.choice(cats)} tasks and daily work.",
            "categories": [rnd.choice(cats)],
            "updated_at": "2026-10-01T00:00:00Z",
            "popularity": {"downloads": rnd.randint(0, 99999), "stars": rnd.randint(0, 999)},
            "source_code_url": f"https://github.com/o/s{i}",
            "has_install_docs": True,
            "has_security_disclosure": True,
            "risk_level": "low",
        }
        for i in range(n)
    ]
    with open(path, "w") as f:
        json.dump({"candidates": items}, f)


def hyperfine(cmd, runs, prepare=None, ignore_failure=False, shell=False):
    out = tempfile.mktemp(suffix=".json")
    args = ["hyperfine", "--runs", str(runs), "--warmup", "1", "--export-json", out, "--style", "none"]
    if not shell:
        args.append("-N")
    if prepare:
        args += ["--prepare", prepare]
    if ignore_failure:
        args.append("-i")
    subprocess.run(args + [cmd], check=True, stdout=subprocess.DEVNULL)
    r = json.load(open(out))["results"][0]
    os.remove(out)
    return r["median"], r["min"], r["max"]


def max_rss_mb(argv, env=None):
    """Max RSS of one run, in MB (GNU time's %M is in KiB)."""
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%M"] + argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    return int(p.stderr.strip().splitlines()[-1]) * 1024 / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "skill-recommender"))
    ap.add_argument("--runs", type=int, default=10)
    # Repeatable, each a substring of a case name: names hold commas ("100,000"), so no list syntax.
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--work", default=os.path.join(ROOT, "target", "bench-whole-process"))
    a = ap.parse_args()
    binary = os.path.abspath(a.bin)
    w = a.work
    os.makedirs(w, exist_ok=True)
    for n in (1000, 100000):
        candidates(os.path.join(w, f"candidates-{n}.json"), n)
    for n in (100, 1000):
        d = os.path.join(w, f"catalog-{n}")
        if not os.path.isdir(d):
            subprocess.run([sys.executable, os.path.join(HERE, "make_catalog.py"), str(n), d], check=True)
    state = os.path.join(w, "state")
    home = os.path.join(w, "home")
    warm_cache = os.path.join(w, "cache")
    os.makedirs(state, exist_ok=True)
    os.makedirs(home, exist_ok=True)
    baseline = os.path.join(HERE, "baseline", "candidate_filter.py")
    sr = f"{binary} --state-dir {state} --now {NOW}"
    nothing = os.path.join(w, "nothing.json")
    py = shutil.which("python3")

    def filt(n):
        return f"{sr} filter --candidates {w}/candidates-{n}.json --mode manual --no-discover"

    def rec(n):
        return (
            f"{sr} recommend --mode manual --task extract-pdf-tables --candidates {w}/candidates-{n}.json"
            " --json --dry-run --no-discover"
        )

    def rank(n):
        return f"{sr} rank --mode manual --task extract-pdf-tables --candidates {w}/candidates-{n}.json --no-discover"

    def orig(n):
        return f"{py} {baseline} --candidates {w}/candidates-{n}.json --mode manual --state {nothing} --history {nothing}"

    # A fresh, empty HOME for every run of the empty-cache case (a new machine, CI, a container).
    fresh = f"rm -rf {home} && mkdir {home}"
    cases = [
        ("python3 -c pass", f"{py} -c pass", {}),
        ("status, empty HOME (no cache)", f"env -i HOME={home} PATH=/usr/bin:/bin {sr} status", {"prepare": fresh}),
        ("status, --no-cache", f"{sr} --no-cache status", {}),
        ("status, warm on-disk cache (--component)", f"{sr} --cache-dir {warm_cache} --component {w}/guest.wasm status", {}),
        ("filter 1,000", filt(1000), {}),
        ("original candidate_filter.py 1,000 (reconstructed)", orig(1000), {}),
        ("recommend 1,000", rec(1000), {}),
        ("filter 100,000", filt(100000), {}),
        ("original candidate_filter.py 100,000 (reconstructed)", orig(100000), {}),
        ("recommend 100,000", rec(100000), {}),
        ("rank 1,000", rank(1000), {}),
        # Failed with the component's memory limit (exit 5) before 2026-12-02: failures are timed too.
        ("rank 100,000", rank(100000), {"ignore_failure": True}),
        ("scan-bundle --from-dir, 100 bundles", f"{sr} scan-bundle --from-dir {w}/catalog-100 --trust community", {"ignore_failure": True}),
        ("scan-bundle --from-dir, 1,000 bundles", f"{sr} scan-bundle --from-dir {w}/catalog-1000 --trust community", {"ignore_failure": True}),
    ]
    only = a.only
    if not only or any(o in "status, warm on-disk cache (--component)" for o in only):
        guest = os.path.join(ROOT, "target", "guest-wasm", "wasm32-wasip2", "wasm-release", "guest.wasm")
        shutil.copy(guest, os.path.join(w, "guest.wasm"))
        subprocess.run(sr.split() + ["--cache-dir", warm_cache, "--component", f"{w}/guest.wasm", "status"], check=True, stdout=subprocess.DEVNULL)
    rows = []
    for name, cmd, opts in cases:
        if only and not any(o in name for o in only):
            continue
        runs = a.runs if "100,000" not in name else max(3, a.runs // 2)
        shell = "prepare" in opts or cmd.startswith("env ")
        med, lo, hi = hyperfine(cmd, runs, opts.get("prepare"), opts.get("ignore_failure", False), shell)
        if "prepare" in opts:
            subprocess.run(fresh, shell=True, check=True)
        rss = max_rss_mb(cmd.split())
        rows.append((name, med, lo, hi, rss))
        print(f"{name}: {med * 1000:.1f} ms (min {lo * 1000:.1f}, max {hi * 1000:.1f}), {rss:.0f} MB", flush=True)
    base = next((r[1] for r in rows if r[0] == "python3 -c pass"), None)
    print()
    print("| case | median | min–max | max RSS | × `python3 -c pass` |")
    print("|---|---:|---:|---:|---:|")
    for name, med, lo, hi, rss in rows:
        ratio = f"{med / base:.2f}" if base else "—"
        print(f"| {name} | {med * 1000:.0f} ms | {lo * 1000:.0f}–{hi * 1000:.0f} ms | {rss:.0f} MB | {ratio} |")
    by = {r[0]: r[1] for r in rows}
    for n in ("1,000", "100,000"):
        o = by.get(f"original candidate_filter.py {n} (reconstructed)")
        f = by.get(f"filter {n}")
        if o and f:
            print(f"\nfilter {n}: {o / f:.2f}× faster than the reconstructed original")


if __name__ == "__main__":
    main()
