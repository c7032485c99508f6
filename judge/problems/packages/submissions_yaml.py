"""`submissions/submissions.yaml` (2025-09): glob patterns over the submissions, each with the verdicts its test
cases may get (`permitted`) and must get at least once (`required`), from AC, WA, TLE, RTE. The specification's
folders (`accepted/`, `wrong_answer/`, ...) carry default requirements, which a key naming the folder overrides;
every other matching pattern adds its requirements to them, so a folder such as `mixed/` means what the file says.

judge stops a submission at its first rejected test, so a requirement is checked on the overall verdict (the
first rejected test's, or AC): it meets `permitted` and `required` when it is in both, or when it is permitted
and AC is required (the tests before it were accepted). A submission with requirements for test groups (a key
such as `secret/group1:` or `secret/*-hard:` under a pattern, matching the tests in and under it) is judged on
every test instead, and every requirement that applies to it is checked on the tests it covers: each test's
verdict permitted, one of them required.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from msgspec import Struct, field

from judge.errors import SpecError
from judge.problems.expectations import CaseRequirement, Expectation, matches_path
from judge.problems.files import read_spec_mapping
from judge.verdicts import Verdict

SUBMISSIONS_YAML = "submissions.yaml"
VERDICTS: dict[str, frozenset[Verdict]] = {
    "AC": frozenset({Verdict.AC}),
    "WA": frozenset({Verdict.WA, Verdict.PE}),
    "TLE": frozenset({Verdict.TLE}),
    "RTE": frozenset({Verdict.RE, Verdict.MLE, Verdict.OLE}),
}
"""The specification's test case verdicts as ours, for legacy packages: its WA covers our PE, its RTE our MLE and
OLE (problemtools, the legacy format's tool, ends a program that outgrows the output limit as a run-time error)."""
VERDICTS_FROM_2023 = {**VERDICTS, "TLE": VERDICTS["TLE"] | {Verdict.OLE}}
"""From 2023-07 on: output beyond `limits.output` must be rejected, and the format names no verdict for it. judge
stops the program at the limit (OLE); BAPCtools expects an endless flood to be TLE, problemtools RTE, so OLE meets
either."""
ALL = tuple(VERDICTS)
KNOWN_KEYS = frozenset(
    {
        "language",
        "entrypoint",
        "authors",
        "model_solution",
        "permitted",
        "required",
        "score",
        "message",
        "use_for_time_limit",
    }
)
_BRACES = re.compile(r"\{([^{}]*)\}")


class Requirement(Struct, frozen=True):
    """What every test case must stay within (`permitted`) and what one must get (`required`)."""

    permitted: tuple[str, ...] = ALL
    required: tuple[str, ...] = ALL
    given: frozenset[str] = frozenset({"permitted", "required"})
    """The fields the file gave; naming a folder overrides only these of its default."""

    def verdicts(self, classes: dict[str, frozenset[Verdict]]) -> frozenset[Verdict]:
        """The overall verdicts that meet it, with `classes` the format version's verdicts as ours (see the
        module's docstring for why the overall verdict)."""
        permitted = set(self.permitted)
        met = permitted & set(self.required) if "AC" not in self.required else permitted
        return frozenset(verdict for name in met for verdict in classes[name])


DEFAULTS: dict[str, tuple[str, Requirement]] = {
    "accepted": ("AC", Requirement(permitted=("AC",))),
    "rejected": ("rejected", Requirement(required=("RTE", "TLE", "WA"))),
    "wrong_answer": ("WA", Requirement(permitted=("AC", "WA"), required=("WA",))),
    "time_limit_exceeded": ("TLE", Requirement(permitted=("AC", "TLE"), required=("TLE",))),
    "run_time_error": ("RTE", Requirement(permitted=("AC", "RTE"), required=("RTE",))),
    "brute_force": ("brute_force", Requirement(permitted=("AC", "RTE", "TLE"), required=("RTE", "TLE"))),
}
"""The specification's folders and the requirements they carry without a submissions.yaml."""


class SubmissionsConfig(Struct, frozen=True):
    """submissions.yaml read: each pattern (braces expanded) with its requirement and any per-group keys."""

    patterns: tuple[tuple[str, Requirement, tuple[tuple[tuple[str, ...], Requirement], ...]], ...] = ()
    """(submission pattern, its requirement, its test groups: (the group's patterns, braces expanded; its
    requirement))."""
    entrypoints: tuple[tuple[str, str], ...] = ()
    """(submission pattern, the `entrypoint` it gives): the file of a submission folder that is its program."""
    classes: dict[str, frozenset[Verdict]] = field(default_factory=lambda: VERDICTS)
    """The format version's verdicts as ours (VERDICTS for legacy, else VERDICTS_FROM_2023)."""

    @classmethod
    def read(cls, root: Path, folder: Path, *, legacy: bool) -> SubmissionsConfig:
        """The package's submissions.yaml in `folder`, or no patterns without one; SpecError naming the key."""
        classes = VERDICTS if legacy else VERDICTS_FROM_2023
        path = folder / SUBMISSIONS_YAML
        if not path.exists():
            return cls(classes=classes)
        raw = read_spec_mapping(path, "glob patterns over submissions/", empty_ok=True, root=root)
        patterns, entrypoints = [], []
        for key, entry in raw.items():
            if not isinstance(entry, Mapping):
                raise SpecError(f"{path}: {key}: must map to keys such as permitted and required")
            requirement = _requirement(path, str(key), entry)
            groups = []
            for name in (name for name in entry if name not in KNOWN_KEYS):
                if not isinstance(entry[name], Mapping):
                    raise SpecError(
                        f"{path}: {key}: {name}: unknown key; use {', '.join(sorted(KNOWN_KEYS))} "
                        f"or a test group's name mapping to its requirements"
                    )
                groups.append((tuple(expand_braces(str(name))), _requirement(path, f"{key}: {name}", entry[name])))
            patterns += [(pattern, requirement, tuple(groups)) for pattern in expand_braces(str(key))]
            if "entrypoint" in entry:
                entrypoints += [(pattern, str(entry["entrypoint"])) for pattern in expand_braces(str(key))]
        return cls(tuple(patterns), tuple(entrypoints), classes)

    def entrypoint(self, relative: PurePosixPath) -> str | None:
        """The entry point the last pattern matching the submission at `relative` gives, or None."""
        given = [entry for pattern, entry in self.entrypoints if matches_path(pattern, relative)]
        return given[-1] if given else None

    def expectation(self, relative: PurePosixPath) -> Expectation | None:
        """What the submission at `relative` (under submissions/) must get (requirements for test groups are
        checked on every test's verdict); None when neither its folder nor any pattern says anything."""
        folder = relative.parts[0]
        default = DEFAULTS.get(folder)
        base = default[1] if default else None
        names = [default[0]] if default else []
        found: list[Requirement] = []
        groups: list[tuple[tuple[str, ...], Requirement]] = []
        for pattern, requirement, pattern_groups in self.patterns:
            if not matches_path(pattern, relative):
                continue
            if base is not None and default and pattern.rstrip("/") == folder:  # naming it overrides its default
                base = Requirement(
                    requirement.permitted if "permitted" in requirement.given else base.permitted,
                    requirement.required if "required" in requirement.given else base.required,
                )
            else:
                found.append(requirement)
                names.append(pattern)
            groups += pattern_groups
        if base is None and not found:
            return None
        verdicts = Requirement().verdicts(self.classes)
        whole = (*([base] if base else []), *found)
        for requirement in whole:
            verdicts &= requirement.verdicts(self.classes)
        tests = (
            tuple(
                self._per_test(patterns, requirement)
                for patterns, requirement in [*(((), requirement) for requirement in whole), *groups]
            )
            if groups
            else ()
        )
        return Expectation(" & ".join(names) if len(names) > 1 else names[0], verdicts, tests=tests)

    def _per_test(self, patterns: tuple[str, ...], requirement: Requirement) -> CaseRequirement:
        """`requirement` on the tests any of `patterns` matches (none: every test), in our verdicts."""

        def ours(names: tuple[str, ...]) -> frozenset[Verdict]:
            return frozenset(verdict for name in names for verdict in self.classes[name])

        return CaseRequirement(patterns, ours(requirement.permitted), ours(requirement.required))


def _requirement(path: Path, key: str, entry: Mapping[Any, Any]) -> Requirement:
    values = []
    given = frozenset(name for name in ("permitted", "required") if name in entry)
    for setting in ("permitted", "required"):
        names = entry.get(setting, list(ALL))
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not names or any(name not in VERDICTS for name in names):
            raise SpecError(f"{path}: {key}: {setting}: must be a list of {', '.join(ALL)}, got {names!r}")
        values.append(tuple(names))
    return Requirement(values[0], values[1], given=given)


def expand_braces(pattern: str) -> list[str]:
    """`author.{py,cpp}` as `author.py` and `author.cpp` (the specification's brace expansion)."""
    match = _BRACES.search(pattern)
    if match is None:
        return [pattern]
    head, tail = pattern[: match.start()], pattern[match.end() :]
    choices = [choice.strip() for choice in match.group(1).split(",")]  # `{ 4 }` is `{4}`, as BAPCtools reads it
    return [expanded for choice in choices for expanded in expand_braces(head + choice + tail)]
