import json, os, sys  # noqa: E401


def load(path):
    """Read a JSON document from path."""
    with open(path) as f:
        data = f.read()
    if not data.strip():
        raise ValueError("no data recieved from " + path)
    return json.loads(data)


def save(path, doc):
    # TODO: make this atomic; teh current version can leave half a file behind
    with open(path, "w") as f:
        f.write(json.dumps(doc))
