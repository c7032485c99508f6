"""assignments.yaml, the teacher's grouping of problems into assignments, read into a `Course` and validated with
pydantic like problem.yaml: any mistake is one line naming the file, the key and the fix.

    zone: Asia/Seoul                      # the IANA zone every time below is written in (default UTC)
    assignments:
      - id: week1
        title: Loops
        problems: [1000, 1001]
        opens: 2026-03-02 09:00           # optional: open from the start
        due: 2026-03-09 23:59
        late: refuse                      # the default; or {percent_per_day: 10, max_days: 3}

It lies in the problems folder (serve reads it at start and on "read the problems again"); a folder without one
has no assignments, and every problem follows the server's contest window."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from judge.course.files import optional_text
from judge.course.model import Assignment, Course, LatePolicy
from judge.course.times import DEFAULT_ZONE, TIME_FORMAT, parse_time, time_zone
from judge.errors import JudgeError
from judge.problems.schema import parse_mapping
from judge.schema_errors import first_error

ASSIGNMENTS_FILE = "assignments.yaml"
LIMIT_BYTES = 256 * 1024
_WRITE_TIME = "write YYYY-MM-DD HH:MM, in the file's zone"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LateModel(_Strict):
    """`late: {percent_per_day: 10, max_days: 3}`: accepted until max_days after the due time, 10 % off a day."""

    percent_per_day: float = Field(ge=0, le=100)
    max_days: float = Field(gt=0, le=366)


class AssignmentModel(_Strict):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    title: str = Field(min_length=1, max_length=200)
    problems: list[str] = Field(min_length=1)
    opens: str | None = None
    due: str
    late: LateModel | None = None
    """None: refused after the due time."""

    @field_validator("problems", mode="before")
    @classmethod
    def _ids_as_text(cls, value: Any) -> Any:
        """`problems: [1000, 1001]`: YAML reads a number, but a problem id is its folder's name."""
        if isinstance(value, list):
            return [str(each) if isinstance(each, int) and not isinstance(each, bool) else each for each in value]
        return value

    @field_validator("late", mode="before")
    @classmethod
    def _refuse_or_mapping(cls, value: Any) -> Any:
        if value == "refuse":
            return None
        if not isinstance(value, dict):
            raise ValueError(f"{value!r} is no late policy; write refuse, or {{percent_per_day: 10, max_days: 3}}")
        return value

    @field_validator("opens", "due", mode="before")
    @classmethod
    def _time_as_text(cls, value: Any) -> Any:
        """YAML reads `2026-03-09 23:59:00` as a datetime and `2026-03-09` as a date: the former is a local time
        to the minute, the latter names no time of day."""
        if isinstance(value, datetime) and value.tzinfo is None and not value.second and not value.microsecond:
            return value.strftime(TIME_FORMAT)
        if isinstance(value, date):
            raise ValueError(f"{value!s} is not a time to the minute; {_WRITE_TIME}")
        return value


class CourseModel(_Strict):
    zone: str = DEFAULT_ZONE
    assignments: list[AssignmentModel] = Field(default_factory=list)


def read_course(path: Path, problem_ids: Collection[str] | None = None) -> Course:
    """The course in the assignments.yaml at `path` (an empty Course when there is no such file). With
    `problem_ids`, an assignment naming a problem not among them is refused. JudgeError (one line naming `path`)
    for a malformed file, a problem in two assignments, or a due time not after the opening."""
    text = optional_text(path, LIMIT_BYTES, ASSIGNMENTS_FILE, "YAML")
    if text is None:
        return Course()
    raw = parse_mapping(text, path, "zone, assignments", empty_ok=True)
    try:
        model = CourseModel.model_validate(raw)
    except ValidationError as error:
        raise JudgeError(f"{path}: {first_error(error)}") from None
    try:
        time_zone(model.zone)
    except JudgeError as error:
        raise JudgeError(f"{path}: {error}") from None
    assignments: list[Assignment] = []
    owner: dict[str, str] = {}
    for index, each in enumerate(model.assignments):
        where = f"{path}: assignments.{index}"
        if any(other.id == each.id for other in assignments):
            raise JudgeError(f"{where}.id: {each.id!r} names two assignments; give each its own id")
        for problem in each.problems:
            if problem in owner:
                raise JudgeError(
                    f"{where}.problems: {problem!r} is already in assignment {owner[problem]!r}; "
                    "a problem belongs to at most one assignment"
                )
            if problem_ids is not None and problem not in problem_ids:
                raise JudgeError(f"{where}.problems: {problem!r} is no problem in this folder; check the id")
            owner[problem] = each.id
        assignments.append(_assignment(each, model.zone, where))
    return Course(assignments=tuple(assignments), zone=model.zone)


def _assignment(model: AssignmentModel, zone: str, where: str) -> Assignment:
    try:
        opens = parse_time(model.opens or "", "opens", zone)
        due = parse_time(model.due, "due", zone)
    except JudgeError as error:
        raise JudgeError(f"{where}.{error}") from None
    if due is None:
        raise JudgeError(f"{where}.due: empty; {_WRITE_TIME}")
    if opens is not None and due <= opens:
        raise JudgeError(f"{where}.due: {model.due} is not after opens ({model.opens}); the due time comes later")
    late = (
        LatePolicy()
        if model.late is None
        else LatePolicy(percent_per_day=model.late.percent_per_day, max_days=model.late.max_days)
    )
    return Assignment(model.id, model.title, tuple(model.problems), opens, due, late)
