"""MRTR-CTX-2: an answer's ``Annotations.lastModified`` is read as chrono's ``DateTime<Utc>``, whose
date is a day of the proleptic Gregorian calendar (``NaiveDate::from_ymd_opt``)."""

from __future__ import annotations

import pytest

from mcp_touchstone.mrtr._answers import _is_datetime


@pytest.mark.parametrize(
    ("stamp", "ok"),
    [
        ("2025-01-12T15:00:58Z", True),
        ("2024-02-29T00:00:00Z", True),  # a leap year
        ("2023-02-29T00:00:00Z", False),
        ("1900-02-29T00:00:00Z", False),  # a century is no leap year
        ("2000-02-29T00:00:00Z", True),  # unless it divides by 400
        ("2025-04-31T00:00:00Z", False),
        ("2025-12-31T23:59:60+01:00", True),  # chrono's leap second
        ("2025-13-01T00:00:00Z", False),
        ("2025-00-10T00:00:00Z", False),
        ("2025-01-00T00:00:00Z", False),
        ("9999-12-31T23:59:59Z", True),
        ("0000-02-29T00:00:00Z", True),  # chrono's year 0 (1 BCE) is a leap year
        ("0000-01-01T00:00:00+01:00", True),  # in UTC a day of year -1, in chrono's range
        ("0001-01-01t00:00:00z", True),
    ],
)
def test_last_modified_dates_are_chronos_calendar(stamp: str, ok: bool) -> None:
    """MRTR-CTX-2: the calendar days chrono's ``NaiveDate`` holds, year 0 included."""
    assert _is_datetime(stamp) is ok
