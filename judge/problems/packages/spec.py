"""A problem package's problem.yaml, validated strictly: every key the specification versions define (legacy,
2023-07-draft, 2025-09), nothing else, so a typo is one line naming the file and the key.

Keys that only describe the problem (authors, license, statement languages) are accepted and not used. Keys
that would change judging and that judge does not use (`UNUSED_JUDGING_KEYS`) are accepted and listed by
`judge verify`, so that an author knows what judge did not do; problem types judge cannot judge at all are
refused by the loader with what to do instead.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from judge.problems.packages.validator_flags import split_flags

Version = Literal["legacy", "legacy-icpc", "2023-07-draft", "2023-07", "2025-09-draft", "2025-09"]
LEGACY: Version = "legacy"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TimeMultipliers(_Strict):
    """2023-07 and later: the safety margins around the slowest accepted and the fastest too-slow submission."""

    ac_to_time_limit: float = Field(default=2.0, ge=1)
    time_limit_to_tle: float = Field(default=1.5, ge=1)


class PackageLimits(_Strict):
    """`limits:`. Seconds and MiB. Legacy: time_multiplier (default 5) and time_safety_margin (default 2)."""

    time_limit: float | None = Field(default=None, gt=0, le=3600)
    time_multiplier: float | None = Field(default=None, ge=1)
    time_safety_margin: float | None = Field(default=None, ge=1)
    time_multipliers: TimeMultipliers | None = None
    time_resolution: float = Field(default=1.0, gt=0)
    memory: int | None = Field(default=None, gt=0, le=65536)
    output: int | None = Field(default=None, gt=0, le=4096)
    code: int | None = Field(default=None, gt=0, le=16384)
    compilation_time: float | None = Field(default=None, gt=0)
    compilation_memory: int | None = Field(default=None, gt=0)
    validation_time: float | None = Field(default=None, gt=0)
    validation_memory: int | None = Field(default=None, gt=0)
    validation_output: int | None = Field(default=None, gt=0)
    validation_passes: int | None = Field(default=None, ge=2)


class PackageSpec(_Strict):
    """problem.yaml of a package. `type` (2023-07+) may be one word or a list; legacy says `validation:`."""

    problem_format_version: Version = LEGACY
    type: str | list[str] = "pass-fail"
    name: str | dict[str, str] | None = None
    uuid: str | None = None
    version: str | None = None
    credits: Any = None
    author: Any = None
    source: Any = None
    source_url: str | None = None
    license: str | None = None
    rights_owner: Any = None
    keywords: str | list[str] | None = None
    embargo_until: Any = None
    languages: str | list[str] | None = None
    allow_file_writing: bool = False
    constants: dict[str, Any] | None = None
    limits: PackageLimits = Field(default_factory=PackageLimits)
    validation: str = "default"
    validator_flags: str = ""
    grading: dict[str, Any] | None = None
    scoring: dict[str, Any] | None = None

    @field_validator("validator_flags")
    @classmethod
    def _flags_split(cls, value: str) -> str:
        """The flags must split as a shell would (a lone quote is a mistake of the file, not of the judge)."""
        split_flags(value)
        return value

    @property
    def unused_keys(self) -> tuple[str, ...]:
        """The keys of `UNUSED_JUDGING_KEYS` this problem.yaml gives (`limits.` ones with their prefix)."""
        given = {*self.model_fields_set, *(f"limits.{key}" for key in self.limits.model_fields_set)}
        return tuple(key for key in UNUSED_JUDGING_KEYS if key in given)

    @property
    def legacy(self) -> bool:
        return self.problem_format_version.startswith(LEGACY)

    @property
    def types(self) -> frozenset[str]:
        """Every word of `type` (2023-07+) and of legacy `validation: custom interactive`."""
        words = {self.type} if isinstance(self.type, str) else set(self.type)
        # multi-pass: DOMjudge's legacy packages say `validation: custom multi-pass` (the legacy format has none)
        words |= {word for word in self.validation.split() if word in ("interactive", "score", "multi-pass")}
        if "score" in words:
            words.add("scoring")
        return frozenset(words)

    @property
    def title(self) -> str | None:
        """The English name, or the only one, or any."""
        if isinstance(self.name, dict):
            return self.name.get("en") or next(iter(self.name.values()), None)
        return self.name


LEGACY_ONLY = ("validation", "validator_flags", "grading")
LEGACY_LIMITS = ("time_multiplier", "time_safety_margin")
NEW_LIMITS = ("time_multipliers", "time_limit")
UNUSED_JUDGING_KEYS = (
    "languages",
    "allow_file_writing",
    "constants",
    "grading",
    "scoring",
    "limits.compilation_time",
    "limits.compilation_memory",
    "limits.validation_output",
)
"""Keys that would change how a package is judged and that judge does not use: accepted, listed by verify."""
