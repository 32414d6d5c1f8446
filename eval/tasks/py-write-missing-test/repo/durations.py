"""Parse durations such as "1h30m" or "45s"."""
import re

_PART = re.compile(r"(\d+)([hms])")
_UNIT = {"h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """Return the number of seconds text stands for: one or more <number><h|m|s> parts, e.g. "1h30m".

    Raises ValueError when text is empty or has anything else in it.
    """
    text = text.strip()
    if not text:
        raise ValueError("empty duration")
    seconds = 0
    pos = 0
    for m in _PART.finditer(text):
        if m.start() != pos:
            raise ValueError(f"bad duration: {text!r}")
        seconds += int(m.group(1)) * _UNIT[m.group(2)]
        pos = m.end()
    if pos != len(text):
        raise ValueError(f"bad duration: {text!r}")
    return seconds
