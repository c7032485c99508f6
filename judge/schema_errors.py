"""A pydantic validation error as the one line a person reads: `key: what is wrong, got <value>`.

Shared by every file the judge validates with pydantic (problem.yaml and a package's files: problems/schema.py and
problems/packages/; languages.yaml: languages/schema.py), so their messages read alike. Imported only where pydantic
already is.
"""

from __future__ import annotations

from pydantic import ValidationError


def one_line(text: str) -> str:
    return " ".join(text.split())


def show_key(part: object) -> str:
    """A key as a message shows it: quoted when it holds line breaks or other invisible characters."""
    text = str(part)
    return text if text and text.isprintable() and text.strip() == text else repr(text)


def first_error(error: ValidationError) -> str:
    """The first pydantic error as `key: what is wrong, got <value>`."""
    first = error.errors()[0]
    key = ".".join(show_key(part) for part in first["loc"]) or "(top level)"
    kind = first["type"]
    if kind == "extra_forbidden":
        return f"{key}: unknown key; remove it or check its spelling"
    if kind == "missing":
        return f"{key}: missing; this key is required"
    if kind == "value_error":  # our own validators' ValueError says what is wrong and shows the value
        return f"{key}: {one_line(str(first.get('ctx', {}).get('error', first['msg'])))}"
    message = {
        "greater_than": "must be a positive number",
        "float_parsing": "must be a positive number",
        "int_parsing": "must be a whole number",
        "int_from_float": "must be a whole number",
    }.get(kind, first["msg"].lower())
    return f"{key}: {message}, got {first.get('input')!r}"
