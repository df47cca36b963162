#!/usr/bin/env python3
"""RECONSTRUCTION, for benchmarks only: the original skill-recommender's optional helper
`scripts/candidate_filter.py` (JasperHye/skill-recommender v1.1.0, MIT).

The original's source is not in this repository. This script implements the same filter from the
observed behaviour recorded in `../shared/reference/original-behaviour.md` ("Candidate filter"),
with the original's quirks kept (spaces are not collapsed in the name key, dedup losers are not
reported, the *last* history record in list order decides the 30-day cooldown), and does what a
plain Python helper of that kind does: `json.load` the candidates, read the state and history files,
filter in one pass, and print the result with `json.dumps(..., indent=2, ensure_ascii=False)`.
It is the whole-process baseline `BENCHMARKS.md` compares `skill-recommender filter` against (the
issue's figure for the original on the same 100,000-candidate file: 2.05 s, 504 MB); it is not part
of the product and nothing else uses it.

    python3 candidate_filter.py --candidates FILE --mode manual|daily [--state FILE] [--history FILE]
"""

import argparse
import json
import os
import sys
from datetime import datetime, timezone

TRUST = {"clawhub": 5, "mcpmarket": 4, "smithery": 3, "glama": 2, "github": 2, "x": 1}
BLACKLIST = {"entertainment", "fortune", "astrology"}
RECOMMEND_COOLDOWN_DAYS = 30
REJECT_COOLDOWN_DAYS = 14
STALE_DAYS = 180
MIN_POPULARITY = 50
MIN_DESCRIPTION = 20


def state_dir():
    if os.environ.get("SKILL_RECOMMENDER_STATE_DIR"):
        return os.environ["SKILL_RECOMMENDER_STATE_DIR"]
    if os.environ.get("HERMES_HOME"):
        return os.path.join(os.environ["HERMES_HOME"], "state", "skill-recommender")
    hermes = os.path.expanduser("~/.hermes")
    if os.path.isdir(hermes):
        return os.path.join(hermes, "state", "skill-recommender")
    return os.path.expanduser("~/.skill-recommender")


def load(path, default):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return dict(default)  # the original's quirk: a corrupt file silently becomes the defaults
    merged = dict(default)
    merged.update(data)
    return merged


def parse_time(text):
    if not text:
        return None
    try:
        t = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)  # naive times read as UTC


def local_zone(state):
    name = state.get("timezone")
    if name:
        try:
            from zoneinfo import ZoneInfo

            return ZoneInfo(name)
        except Exception:
            pass
    return datetime.now().astimezone().tzinfo


def name_key(name):
    return str(name or "").lower().replace("-", " ").replace("_", " ")


def days_since(t, now):
    return (now - t).days


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--mode", choices=["manual", "daily"], default="manual")
    ap.add_argument("--state")
    ap.add_argument("--history")
    a = ap.parse_args()
    d = state_dir()
    state = load(a.state or os.path.join(d, "state.json"), {"installed_skill_ids": [], "last_actions": []})
    history = load(a.history or os.path.join(d, "history.json"), {"recommendations": []})
    with open(a.candidates, encoding="utf-8") as f:
        data = json.load(f)
    candidates = data.get("candidates", []) if isinstance(data, dict) else data
    now = datetime.now(timezone.utc)
    kept, dropped = [], []

    if a.mode == "daily":
        zone = local_zone(state)
        today = now.astimezone(zone).date()
        for r in history.get("recommendations", []):
            t = parse_time(r.get("date"))
            if t and t.astimezone(zone).date() == today:
                for c in candidates:
                    dropped.append({"skill_id": c.get("skill_id"), "reason": "daily_quota_exhausted"})
                print(json.dumps({"kept": [], "dropped": dropped}, ensure_ascii=False, indent=2))
                return

    # Dedup by id, then by name; the more trusted source wins, the first seen on a tie.
    def dedup(items, key_of):
        at, out = {}, []
        for c in items:
            key = key_of(c)
            if key in at:
                old = out[at[key]]
                count = old.get("cross_source_count", 1) + 1
                if TRUST.get(c.get("source"), 0) > TRUST.get(old.get("source"), 0):
                    out[at[key]] = c
                    old = c
                old["cross_source_count"] = count
            else:
                at[key] = len(out)
                out.append(c)
        return out

    unique = dedup(dedup(candidates, lambda c: c.get("skill_id")), lambda c: name_key(c.get("name")))

    installed = set(state.get("installed_skill_ids", []))
    last_shown = {}
    for r in history.get("recommendations", []):  # the last record in list order wins (quirk)
        last_shown[r.get("skill_id")] = parse_time(r.get("date"))
    last_reject = {}
    for act in state.get("last_actions", []):
        if act.get("action") == "reject":
            last_reject[act.get("skill_id")] = parse_time(act.get("date"))

    for c in unique:
        sid = c.get("skill_id")
        reason = None
        if not all(str(c.get(k) or "").strip() for k in ("skill_id", "name", "url", "description")):
            reason = "missing_required_fields"
        elif not str(c.get("url")).startswith(("http://", "https://")):
            reason = "invalid_url"
        elif sid in installed:
            reason = "already_installed"
        elif last_shown.get(sid) and days_since(last_shown[sid], now) < RECOMMEND_COOLDOWN_DAYS:
            reason = "recommended_recently"
        elif last_reject.get(sid) and days_since(last_reject[sid], now) < REJECT_COOLDOWN_DAYS:
            reason = "rejected_recently"
        elif any(str(x).lower() in BLACKLIST for x in c.get("categories") or []):
            reason = "blacklist_category"
        elif len(str(c.get("description")).strip()) < MIN_DESCRIPTION:
            reason = "description_too_short"
        else:
            updated = parse_time(c.get("updated_at"))
            age = days_since(updated, now) if updated else 9999
            pop = c.get("popularity") or {}
            total = int(pop.get("downloads") or 0) + int(pop.get("stars") or 0)
            if age > STALE_DAYS and total < MIN_POPULARITY:
                reason = "stale_and_low_popularity"
        if reason:
            dropped.append({"skill_id": sid, "reason": reason})
        else:
            kept.append(c)
    print(json.dumps({"kept": kept, "dropped": dropped}, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    sys.exit(main())
