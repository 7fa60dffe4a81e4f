"""``is_calendar_date`` (the RFC 3339 answer check's date test) answers as ``datetime.date``."""

from __future__ import annotations

import datetime

from hypothesis import given
from hypothesis import strategies as st

from mcp_touchstone.mrtr._answers import is_calendar_date


def _exists(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def test_every_day_of_the_leap_rule_years_and_the_bounds() -> None:
    """Every month 0-13 and day 0-32 of the years that decide the leap rule and the range."""
    for year in (0, 1, 2, 3, 4, 100, 200, 400, 1600, 1700, 1900, 2000, 2023, 2024, 2100, 9999):
        for month in range(14):
            for day in range(33):
                assert is_calendar_date(year, month, day) == _exists(year, month, day)


def test_february_of_every_year() -> None:
    """The 28th to the 30th of February of every four-digit year."""
    for year in range(10_000):
        for day in (28, 29, 30):
            assert is_calendar_date(year, 2, day) == _exists(year, 2, day), (year, day)


@given(st.integers(0, 9999), st.integers(0, 99), st.integers(0, 99))
def test_any_two_digit_month_and_day(year: int, month: int, day: int) -> None:
    """Any year, month and day the RFC 3339 pattern can capture (four, two, two digits)."""
    assert is_calendar_date(year, month, day) == _exists(year, month, day)
