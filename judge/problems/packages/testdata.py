"""A package's test data: `data/sample/` then `data/secret/` (groups nested to any depth), `<name>.in` with
`<name>.ans`, each folder's entries in natural order, and each group's settings file (`testdata.yaml` in the
legacy format, `test_group.yaml` from 2023-07 on), inherited by the groups below it.

Test names are their paths under data/ without the extension (`sample/1`, `secret/group1/03`), so samples are
the tests whose names start with `sample`, as for our own problems.

A group's arguments for its input validators (2025-09 `input_validator_args`: a list, or a map from validator
name to a list; the 2023-07 drafts' strings split as a shell would; legacy `input_validator_flags`: a string, or
`{name: validator, flags: string}`) are inherited like its output validator flags; a map naming no validator of
the package is a mistake of the file.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import msgspec.structs
from msgspec import Struct, field
from pydantic import ValidationError

from judge.errors import SpecError
from judge.intake import natural_key
from judge.problems.files import file_inside, read_spec_mapping, resolve_inside
from judge.problems.model import SPEC_FILE, TestCase
from judge.problems.packages.detect import DATA_FOLDER
from judge.problems.packages.group_settings import SETTINGS_FILES, TEST_CASE_KEYS, USED_GROUP_KEYS, GroupSettings
from judge.problems.packages.rules import ValidatorArgs
from judge.problems.scoring import AGGREGATIONS, FLAGS, VERDICT_MODES, ScoreGroup, checked_score
from judge.schema_errors import first_error

GROUPS = ("sample", "secret")


class PackageTest(Struct, frozen=True):
    """A test case and the validator arguments that apply to it (its group's, or the nearest ancestor's)."""

    case: TestCase
    validator_flags: tuple[str, ...]
    input_validator_args: ValidatorArgs = field(default_factory=ValidatorArgs)
    flags_file: Path | None = None
    """The file that gave `validator_flags` (problem.yaml, or a group's or the test's own settings), for messages."""


class TestData(Struct, frozen=True):
    """What data/ holds: the tests in judging order, the group tree that grades them (used when the problem is
    scored), and the settings files read (they affect judging, so they travel with the problem)."""

    tests: tuple[PackageTest, ...]
    groups: ScoreGroup
    settings_files: tuple[Path, ...]
    unused_keys: tuple[str, ...] = ()
    """Keys the specification defines that judge does not use, each once, as `key (first file that gives it)`."""


class _Inherited(Struct, frozen=True):
    """What a group passes down to its subgroups."""

    flags: tuple[str, ...]
    input_args: ValidatorArgs
    accept_score: float
    reject_score: float
    break_on_reject: bool
    flags_file: Path


def load_tests(
    root: Path, flags: tuple[str, ...], *, legacy: bool, input_validators: tuple[Path, ...] = ()
) -> TestData:
    """Every test under data/sample and data/secret with its flags (`flags`: problem.yaml's, the default) and its
    input validators' arguments (a map of them may name only `input_validators`)."""
    data = root / DATA_FOLDER
    read: list[tuple[Path, GroupSettings]] = []
    tests: list[PackageTest] = []
    top = _settings(root, data, read)
    inherited = _inherit(_Inherited(flags, ValidatorArgs(), 1.0, 0.0, False, root / SPEC_FILE), top, read)
    items: list[str | ScoreGroup] = []
    above = frozenset({resolve_inside(data, root, folder=True)})
    walk = _Walk(root, data, tests, read)
    for group in GROUPS:
        folder = data / group
        if os.path.lexists(folder):
            if group == "sample" and not legacy:  # from 2023-07 on, samples score nothing, score.txt or not
                walked = walk.group(folder, msgspec.structs.replace(inherited, accept_score=0.0), above)
                items.append(msgspec.structs.replace(walked, checker_scores=False))
            else:
                items.append(walk.group(folder, inherited, above))
    if not tests:
        raise SpecError(f"{data}: no test cases; put <name>.in with <name>.ans under data/sample or data/secret")
    _check_validator_names(read, input_validators)
    whole = _group("", tuple(items), inherited, top)
    return TestData(
        tuple(tests),
        msgspec.structs.replace(whole, full_score=_full_score(read[0][0], top)) if top is not None else whole,
        tuple(path for path, _ in read),
        _unused_keys(root, read),
    )


def _full_score(path: Path, top: GroupSettings) -> float | None:
    """The maximum of the top group's `range: <min> <max>` (legacy; problemtools' default is `-inf +inf`), when
    finite: the full score an accepted submission should get. A range that does not read as two numbers, the
    smaller first, is a SpecError naming the file."""
    if top.range is None:
        return None
    words = top.range.split()
    try:
        low, high = (float(word) for word in words) if len(words) == 2 else (math.nan, math.nan)
    except ValueError:
        low = high = math.nan
    if not low <= high:
        raise SpecError(f"{path}: range: must be two numbers, the smaller first (as `0 100`), got {top.range!r}")
    if not math.isfinite(high):
        return None
    try:
        return checked_score(high)
    except ValueError as error:
        raise SpecError(f"{path}: range: its maximum {error}") from None


def _check_validator_names(read: list[tuple[Path, GroupSettings]], validators: tuple[Path, ...]) -> None:
    """Arguments given to a validator the package does not have would be silently dropped: a typo, refused. A
    copy of the package made for judging submissions has no validators to check the names against."""
    if not validators:
        return
    names = {name for path in validators for name in (path.name, path.stem)}
    for path, settings in read:
        args = settings.input_args()
        for name, _ in args.by_name if args is not None else ():
            if name not in names:
                have = ", ".join(sorted(path.name for path in validators))
                raise SpecError(
                    f"{path}: input validator arguments for {name!r}, which is not in input_validators/ "
                    f"(it has {have}); name one of them"
                )


def _unused_keys(root: Path, read: list[tuple[Path, GroupSettings]]) -> tuple[str, ...]:
    """Each key of the settings files `read` that judge does not use, once, with the first file giving it."""
    first: dict[str, Path] = {}
    for path, settings in read:
        used = USED_GROUP_KEYS | ({"range"} if path.parent == root / DATA_FOLDER else set())  # the top one's
        for key in sorted(settings.model_fields_set - used):
            first.setdefault(key, path)
    return tuple(f"{key} ({first[key].relative_to(root).as_posix()})" for key in first)


class _Walk(Struct, frozen=True):
    """One walk of data/ in the package at `root`: the tests found and the settings files read, in order."""

    root: Path
    data: Path
    tests: list[PackageTest]
    read: list[tuple[Path, GroupSettings]]

    def group(self, folder: Path, parent: _Inherited, above: frozenset[Path]) -> ScoreGroup:
        """The group `folder` and everything below it. A folder may be a link to another inside the package
        (walked under its own name, as a linked test is read under its); `above` holds the real paths of the
        folders above, so a link to one of them is refused rather than walked forever."""
        real = resolve_inside(folder, self.root, folder=True)
        if real in above:
            raise SpecError(f"{folder}: links to a folder above it; link to the tests, not to a group holding it")
        settings = _settings(self.root, folder, self.read)
        inherited = _inherit(parent, settings, self.read)
        items: list[str | ScoreGroup] = []
        for entry in sorted(os.scandir(folder), key=lambda entry: natural_key(entry.name)):
            path = Path(entry.path)
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                items.append(self.group(path, inherited, above | {real}))
            elif entry.name.endswith(".in"):
                answer = path.with_suffix(".ans")
                if not os.path.lexists(answer):
                    raise SpecError(f"{answer}: missing; every .in needs its .ans (the reference answer)")
                for file in (path, answer):
                    file_inside(file, real, self.root)
                name = path.relative_to(self.data).with_suffix("").as_posix()
                case = TestCase(name=name, input_path=path, answer_path=answer)
                own = _inherit(inherited, self._case_settings(path.with_suffix(".yaml"), real), self.read)
                self.tests.append(PackageTest(case, own.flags, own.input_args, own.flags_file))
                items.append(name)
        return _group(folder.relative_to(self.data).as_posix(), tuple(items), inherited, settings)

    def _case_settings(self, path: Path, folder: Path) -> GroupSettings | None:
        """A test case's own settings file, read as a group's with the keys a test case may set; `args` for the
        submission are refused, since judge passes none and the test would mean something else."""
        if not os.path.lexists(path):
            return None
        file_inside(path, folder, self.root)
        settings = _read_settings(path, self.root, self.read, keys=TEST_CASE_KEYS)
        if settings.args:
            raise SpecError(f"{path}: args: judge passes no arguments to submissions yet; remove the key")
        return settings


def _inherit(parent: _Inherited, settings: GroupSettings | None, read: list[tuple[Path, GroupSettings]]) -> _Inherited:
    """What `settings` (None: no file) pass down, over what `parent` did; `read` ends with the file they came from."""
    if settings is None:
        return parent
    flags, input_args = settings.validator_flags(), settings.input_args()
    return _Inherited(
        flags=parent.flags if flags is None else flags,
        flags_file=parent.flags_file if flags is None else read[-1][0],
        input_args=parent.input_args if input_args is None else input_args,
        accept_score=parent.accept_score if settings.accept_score is None else settings.accept_score,
        reject_score=parent.reject_score if settings.reject_score is None else settings.reject_score,
        break_on_reject=parent.break_on_reject if settings.on_reject is None else settings.on_reject == "break",
    )


def _group(
    name: str, items: tuple[str | ScoreGroup, ...], inherited: _Inherited, settings: GroupSettings | None
) -> ScoreGroup:
    """The group's grading: legacy `grader_flags`, or 2023-07's `scoring: {score, aggregation}` (2025-09's
    `max_score` and `score_aggregation`), where a group's score is spread over its own tests."""
    group = ScoreGroup(
        name, items, inherited.accept_score, inherited.reject_score, break_on_reject=inherited.break_on_reject
    )
    if settings is None:
        return group
    words = (settings.grader_flags or "").split()
    for word in words:
        if word not in (*AGGREGATIONS, *VERDICT_MODES, *FLAGS):
            raise SpecError(
                f"{name or 'data'}: grader_flags: unknown flag {word!r}; use "
                f"{', '.join((*AGGREGATIONS, *VERDICT_MODES, *FLAGS))}"
            )
    aggregation = next((word for word in reversed(words) if word in AGGREGATIONS), "sum")
    mode = next((word for word in reversed(words) if word in VERDICT_MODES), "worst_error")
    group = msgspec.structs.replace(
        group,
        aggregation=aggregation,
        verdict_mode=mode,
        accept_if_any="accept_if_any_accepted" in words,
        ignore_sample="ignore_sample" in words,
    )
    scoring = dict(settings.scoring or {})
    score = scoring.get("score", settings.max_score)
    score_aggregation = scoring.get("aggregation", settings.score_aggregation)
    if score_aggregation is not None:
        if score_aggregation not in ("sum", "min", "pass-fail"):
            raise SpecError(
                f"{name or 'data'}: score aggregation: must be sum, min or pass-fail, got {score_aggregation!r}"
            )
        group = msgspec.structs.replace(group, aggregation="min" if score_aggregation == "min" else "sum")
    if isinstance(score, int | float) and not isinstance(score, bool):
        own = sum(isinstance(item, str) for item in items) or 1
        per_test = float(score) if group.aggregation == "min" else float(score) / own
        group = msgspec.structs.replace(group, accept_score=per_test)
    return group


def _settings(root: Path, folder: Path, read: list[tuple[Path, GroupSettings]]) -> GroupSettings | None:
    for name in SETTINGS_FILES:
        path = folder / name
        if os.path.lexists(path):
            return _read_settings(path, root, read)
    return None


def _read_settings(
    path: Path, root: Path, read: list[tuple[Path, GroupSettings]], *, keys: tuple[str, ...] | None = None
) -> GroupSettings:
    """One settings file, recorded in `read` (verify lists the keys judge does not use); with `keys`, only those
    may appear (a test case's own file)."""
    raw = read_spec_mapping(
        path, ", ".join(keys or ("output_validator_flags", "accept_score", "...")), empty_ok=True, root=root
    )
    unknown = sorted(str(key) for key in raw if key not in keys) if keys is not None else []
    if unknown:
        raise SpecError(f"{path}: {unknown[0]}: not a key of a test case; use {', '.join(keys or ())}")
    try:
        settings = GroupSettings.model_validate(raw)
    except ValidationError as error:
        raise SpecError(f"{path}: {first_error(error)}") from None
    read.append((path, settings))
    return settings
