"""Moments as a teacher writes them and as every reader is shown them, shared by serve's contest window and a
course's assignments (assignments.yaml, extensions.csv, the teacher's page), so that both read a time alike.

A teacher writes local time, `YYYY-MM-DD HH:MM`, in a time zone named beside it (an IANA name such as
Asia/Seoul); the judge keeps Unix times and shows them in UTC, inside a `<time datetime>` on the pages, whose
script shows them in the reader's own local time."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from judge.errors import JudgeError

TIME_FORMAT = "%Y-%m-%d %H:%M"
DEFAULT_ZONE = "UTC"


def shown_time(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime(TIME_FORMAT) + " UTC"


def iso_time(moment: float) -> str:
    """A moment as a `<time datetime>` holds it (UTC, to the second)."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def time_zone(name: str) -> ZoneInfo:
    """The zone called `name` (JudgeError naming the field when there is none)."""
    try:
        return ZoneInfo(name.strip() or DEFAULT_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        raise JudgeError(f"zone: {name!r} is not a time zone; write one such as Asia/Seoul, or UTC") from None


def parse_time(text: str, field: str, zone: str = DEFAULT_ZONE) -> float | None:
    """A form's `YYYY-MM-DD HH:MM` (or a datetime-local input's `T` between them), read in `zone`, as Unix time;
    empty is None."""
    text = text.strip().replace("T", " ")
    if not text:
        return None
    try:
        local = datetime.strptime(text, TIME_FORMAT)
    except ValueError:
        raise JudgeError(f"{field}: {text!r} is not a time; write YYYY-MM-DD HH:MM") from None
    return local.replace(tzinfo=time_zone(zone)).timestamp()
