"""Small date helpers."""


def is_leap(year: int) -> bool:
    """Return True when year is a leap year in the Gregorian calendar."""
    return year % 4 == 0 and year % 100 != 0


def days_in_february(year: int) -> int:
    """Return the number of days February has in year."""
    return 29 if is_leap(year) else 28
