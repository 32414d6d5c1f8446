"""In-memory side of the cache."""
import json
import os


def load_entries(path):
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_entries(entries, new):
    """Write new entries into the in-memory dict (nothing touches the disk here)."""
    entries.update(new)
