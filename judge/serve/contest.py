"""The teacher's settings for the session: the contest window, the scoreboard (shown, hidden, frozen for the last
N minutes), and the limit on pending submissions. Stored in the database's settings table as text, so both
processes and a restart see the same values.

The teacher types the window in local time, in a time zone named beside it (the page's script fills in the browser's
own until one is saved), read as course/times.py reads an assignment's times."""

from __future__ import annotations

from datetime import datetime

import msgspec.structs
from msgspec import Struct

from judge.course.times import DEFAULT_ZONE, parse_time, shown_time, time_zone
from judge.errors import JudgeError

INPUT_FORMAT = "%Y-%m-%dT%H:%M"
"""A datetime-local input's value."""


class ContestSettings(Struct, frozen=True):
    """`start`/`end` are Unix times (None: open on that side); `freeze_minutes` hides the scoreboard's changes
    from students over the contest's last minutes (0: never)."""

    start: float | None = None
    end: float | None = None
    scoreboard_hidden: bool = False
    freeze_minutes: int = 0
    zone: str = ""
    """The time zone the teacher types the window in ("" until saved: the form then offers the browser's)."""

    @classmethod
    def of(cls, stored: dict[str, str]) -> ContestSettings:
        return cls(
            start=float(stored["start"]) if stored.get("start") else None,
            end=float(stored["end"]) if stored.get("end") else None,
            scoreboard_hidden=stored.get("scoreboard_hidden") == "1",
            freeze_minutes=int(stored.get("freeze_minutes") or 0),
            zone=stored.get("zone", ""),
        )

    def stored(self) -> dict[str, str]:
        return {
            "start": "" if self.start is None else repr(self.start),
            "end": "" if self.end is None else repr(self.end),
            "scoreboard_hidden": "1" if self.scoreboard_hidden else "0",
            "freeze_minutes": str(self.freeze_minutes),
            "zone": self.zone,
        }

    def refusal(self, now: float) -> str:
        """Why a submission at `now` is refused (outside the window), or "" when it is welcome."""
        if self.start is not None and now < self.start:
            return f"the contest opens at {shown_time(self.start)}; submit then"
        if self.end is not None and now >= self.end:
            return f"the contest closed at {shown_time(self.end)}; no more submissions are accepted"
        return ""

    @property
    def freeze_at(self) -> float | None:
        """From when the scoreboard stops changing for students (None: it never freezes)."""
        if self.end is None or not self.freeze_minutes:
            return None
        return self.end - 60 * self.freeze_minutes


def input_time(moment: float | None, zone: str) -> str:
    """A moment as a datetime-local input shows it, in `zone` ("" for none)."""
    if moment is None:
        return ""
    return datetime.fromtimestamp(moment, time_zone(zone)).strftime(INPUT_FORMAT)


def with_form(settings: ContestSettings, form: dict[str, str]) -> ContestSettings:
    """The settings the teacher's form asks for (JudgeError naming the field when one is malformed)."""
    zone = form.get("zone", "").strip() or DEFAULT_ZONE
    time_zone(zone)
    start, end = parse_time(form.get("start", ""), "start", zone), parse_time(form.get("end", ""), "end", zone)
    if start is not None and end is not None and end <= start:
        raise JudgeError("end: the contest must end after it starts")
    try:
        freeze = int(form.get("freeze_minutes") or 0)
    except ValueError:
        raise JudgeError("freeze_minutes: give a whole number of minutes") from None
    if freeze < 0:
        raise JudgeError("freeze_minutes: give 0 or more minutes")
    return msgspec.structs.replace(
        settings,
        start=start,
        end=end,
        scoreboard_hidden=form.get("scoreboard") == "hidden",
        freeze_minutes=freeze,
        zone=zone,
    )


def countdown(seconds: float) -> str:
    """How long until a moment, as a person says it: `2 d 3 h`, `1 h 05 min`, `4 min 10 s`, `10 s`
    (static/app.js's `countdown` says the same as it counts down)."""
    left = max(0, int(seconds))
    days, hours, minutes, rest = left // 86400, left // 3600 % 24, left // 60 % 60, left % 60
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {rest:02d} s"
    return f"{rest} s"
