"""The default output validator's flags (`validator_flags` in a legacy problem.yaml, a group's
`output_validator_flags` / `output_validator_args`) as our checker spec, with the specification's rules:
`float_tolerance ε` sets both tolerances, and no tolerance may be given twice or together with float_tolerance."""

from __future__ import annotations

import shlex
from pathlib import Path

from judge.errors import SpecError
from judge.problems.model import CheckerSpec

CHECKER = "package-default"
SWITCHES = {"case_sensitive": "case_sensitive", "space_change_sensitive": "space_change_sensitive"}
TOLERANCES = {
    "float_absolute_tolerance": ("absolute",),
    "float_relative_tolerance": ("relative",),
    "float_tolerance": ("absolute", "relative"),
}


def default_checker(flags: tuple[str, ...], where: Path) -> CheckerSpec:
    """The checker the flags ask for; a flag that is unknown, repeated or missing its number is a SpecError
    naming `where` (the file that gave them)."""
    options: dict[str, float | int | str | bool] = {}
    given: list[str] = []
    words = list(flags)
    while words:
        word = words.pop(0)
        if word in SWITCHES:
            options[SWITCHES[word]] = True
            continue
        if word not in TOLERANCES:
            choices = ", ".join([*SWITCHES, *TOLERANCES])
            raise SpecError(f"{where}: validator flags: unknown flag {word!r} for the default validator; use {choices}")
        if word in given or (given and "float_tolerance" in (word, *given)):
            raise SpecError(f"{where}: validator flags: {word} repeats a tolerance already given; give each once")
        given.append(word)
        value = words.pop(0) if words else ""
        try:
            number = float(value)
        except ValueError:
            raise SpecError(f"{where}: validator flags: {word} needs a number, got {value!r}") from None
        if not number >= 0 or number == float("inf"):
            raise SpecError(f"{where}: validator flags: {word} must be a non-negative number, got {value!r}")
        for option in TOLERANCES[word]:
            options[option] = number
    return CheckerSpec(name=CHECKER, options=options)


def split_flags(text: str) -> tuple[str, ...]:
    """Flags given as one string, split as a shell would; ValueError (pydantic reports it with the file and key)
    when they do not split, as with a lone quote."""
    try:
        return tuple(shlex.split(text))
    except ValueError as error:
        raise ValueError(
            f"cannot be split into words ({str(error).lower()}): {text!r}; close the quote, or "
            f"escape it with a backslash"
        ) from None
