"""A key-value cache that survives restarts."""
from store import disk, memory


class Cache:
    def __init__(self, path):
        self.path = path
        self.entries = memory.load_entries(path)

    def put(self, key, value):
        memory.write_entries(self.entries, {key: value})

    def save(self):
        """Persist the cache (see store for how)."""
        disk.persist(self.path, self.entries)
