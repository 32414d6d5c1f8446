"""A tiny todo list: add, list and finish items from the command line."""

import sys


class Store:
    """Keeps the todo items in memory."""

    def __init__(self):
        self.items = []

    def add(self, text):
        self.items.append({"text": text, "done": False})
        return len(self.items)

    def finish(self, number):
        self.items[number - 1]["done"] = True

    def all(self):
        return list(self.items)


def main(argv, store):
    if argv[:1] == ["add"]:
        print(store.add(" ".join(argv[1:])))
    elif argv[:1] == ["done"]:
        store.finish(int(argv[1]))
    else:
        for i, item in enumerate(store.all(), 1):
            print(f"{i}. [{'x' if item['done'] else ' '}] {item['text']}")


if __name__ == "__main__":
    main(sys.argv[1:], Store())
