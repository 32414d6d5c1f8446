"""On-disk side of the cache."""
import json
import os
import tempfile


def persist(path, entries):
    """Save entries unless there are none."""
    if entries:
        _flush_cache(path, entries)


def _flush_cache(path, entries):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(entries, f)
    os.replace(tmp, path)
