"""Measure one `filter` call with 1,000 candidates through the Python host (the number in README.md).

    python hosts/python/bench/filter_1000.py [--rounds 20]

The candidates cross the boundary as one JSON string, as the WIT is designed; the time printed covers
the whole Host.filter call: reading state, a fresh Store + instance, lowering the string, the guest's
filter, lifting the result and json.loads. Discovery is off (no installed-skill folders are read).
"""

import json
import statistics
import sys
import tempfile
import time

from skill_recommender import Host


def candidates(n):
    cats = ["pdf", "documents", "research", "web", "data", "devops", "writing", "finance"]
    out = []
    for i in range(n):
        out.append({
            "skill_id": f"clawhub:skill-{i:04d}",
            "name": f"Skill number {i}",
            "url": f"https://clawhub.ai/owner{i % 37}/skill-{i:04d}",
            "source_code_url": f"https://github.com/owner{i % 37}/skill-{i:04d}",
            "description": f"Does useful thing number {i} for agents that need it every day.",
            "categories": [cats[i % len(cats)], cats[(i * 3) % len(cats)]],
            "source": "clawhub",
            "owner": f"owner{i % 37}",
            "updated_at": "2026-11-01T00:00:00Z",
            "popularity": {"downloads": 100 + i, "stars": i % 50},
            "has_install_docs": True,
            "has_security_disclosure": i % 2 == 0,
        })
    return {"candidates": out}


def main():
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 20
    text = json.dumps(candidates(1000))
    h = Host(tempfile.mkdtemp(), now="2026-11-29T02:00:00Z", timezone="Asia/Shanghai")
    first = time.perf_counter()
    out = h.filter(text, "manual", discover=False)
    first = time.perf_counter() - first
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        h.filter(text, "manual", discover=False)
        times.append(time.perf_counter() - t)
    print(f"input {len(text):,} bytes, kept {out['summary']['kept']}, dropped {out['summary']['dropped']}")
    print(f"first call {first * 1000:.1f} ms; then median {statistics.median(times) * 1000:.1f} ms, "
          f"min {min(times) * 1000:.1f} ms over {rounds} calls")
    small = json.dumps(candidates(25))
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        h.filter(small, "manual", discover=False)
        ts.append(time.perf_counter() - t)
    print(f"25 candidates: median {statistics.median(ts) * 1000:.2f} ms")
    ts = []
    for _ in range(rounds):
        t = time.perf_counter()
        h.daily_gate()
        ts.append(time.perf_counter() - t)
    print(f"daily-gate: median {statistics.median(ts) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
