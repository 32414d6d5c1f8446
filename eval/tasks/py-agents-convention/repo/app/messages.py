"""Every user-facing string of the app."""

HELLO = "Hello, {name}!"
UNKNOWN_USER = "I don't know you yet."
