"""The teacher's settings for the session: the contest window, the scoreboard (shown, hidden, frozen for the last
N minutes), and the limit on pending submissions. Stored in the database's settings table as text, so both
processes and a restart see the same values."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime

from judge.errors import JudgeError

TIME_FORMAT = "%Y-%m-%d %H:%M"


@dataclass(frozen=True)
class ContestSettings:
    """`start`/`end` are Unix times (None: open on that side); `freeze_minutes` hides the scoreboard's changes
    from students over the contest's last minutes (0: never)."""

    start: float | None = None
    end: float | None = None
    scoreboard_hidden: bool = False
    freeze_minutes: int = 0

    @classmethod
    def of(cls, stored: dict[str, str]) -> ContestSettings:
        return cls(
            start=float(stored["start"]) if stored.get("start") else None,
            end=float(stored["end"]) if stored.get("end") else None,
            scoreboard_hidden=stored.get("scoreboard_hidden") == "1",
            freeze_minutes=int(stored.get("freeze_minutes") or 0),
        )

    def stored(self) -> dict[str, str]:
        return {
            "start": "" if self.start is None else repr(self.start),
            "end": "" if self.end is None else repr(self.end),
            "scoreboard_hidden": "1" if self.scoreboard_hidden else "0",
            "freeze_minutes": str(self.freeze_minutes),
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


def shown_time(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime(TIME_FORMAT) + " UTC"


def parse_time(text: str, field: str) -> float | None:
    """A form's `YYYY-MM-DD HH:MM` (UTC; also the `T` of a datetime-local input) as Unix time; empty is None."""
    text = text.strip().replace("T", " ")
    if not text:
        return None
    try:
        return datetime.strptime(text, TIME_FORMAT).replace(tzinfo=UTC).timestamp()
    except ValueError:
        raise JudgeError(f"{field}: {text!r} is not a time; write YYYY-MM-DD HH:MM (UTC)") from None


def with_form(settings: ContestSettings, form: dict[str, str]) -> ContestSettings:
    """The settings the teacher's form asks for (JudgeError naming the field when one is malformed)."""
    start, end = parse_time(form.get("start", ""), "start"), parse_time(form.get("end", ""), "end")
    if start is not None and end is not None and end <= start:
        raise JudgeError("end: the contest must end after it starts")
    try:
        freeze = int(form.get("freeze_minutes") or 0)
    except ValueError:
        raise JudgeError("freeze_minutes: give a whole number of minutes") from None
    if freeze < 0:
        raise JudgeError("freeze_minutes: give 0 or more minutes")
    return dataclasses.replace(
        settings, start=start, end=end, scoreboard_hidden=form.get("scoreboard") == "hidden", freeze_minutes=freeze
    )
