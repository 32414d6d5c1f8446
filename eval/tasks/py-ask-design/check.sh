#!/usr/bin/env bash
# Pass: the request is open between two designs docs/storage.md describes
# (SQLite or a JSON file) and says a decision comes first, so the agent must
# ask: an ask_user call offering both. In a headless run no one answers, so
# what it does after asking is not judged.
set -euo pipefail
python3 - "$EVAL_TRANSCRIPT" <<'PY'
import json, sys
asked = []
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("type") != "assistant":
        continue
    for c in m.get("message", {}).get("content", []):
        if c.get("type") == "tool_use" and c.get("name") == "ask_user":
            asked.append(json.dumps(c.get("input"), ensure_ascii=False).lower())
if not asked:
    sys.exit("the agent did not ask (no ask_user call)")
if not any("sqlite" in a and "json" in a for a in asked):
    sys.exit("no question offered both designs (SQLite and JSON): %s" % asked)
PY
