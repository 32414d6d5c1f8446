"""Greetings."""
from app import messages


def greet(name: str) -> str:
    """Return the greeting for name."""
    if not name:
        return messages.UNKNOWN_USER
    return messages.HELLO.format(name=name)
