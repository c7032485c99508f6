"""Fingerprints of a source on its tokens, with copydetect (the winnowing algorithm MOSS uses).

copydetect tokenizes with Pygments and writes every name as V (F for a function, O for a class) and every string
as S, and drops comments and whitespace: renamed variables, new comments and reformatting leave the fingerprints
as they were. Winnowing keeps a position-free set of hashes of k-token windows, so reordered functions match too.
Code the teacher handed out is removed by passing its hashes as boilerplate.

The hashes are Python's `hash` of text, which is salted per process: compare fingerprints made in one process.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from copydetect import CodeFingerprint
from msgspec import Struct

from judge.languages.catalog import Language
from judge.languages.detection import detect_language

NOISE_CHARACTERS = 25
"""copydetect's default: matches shorter than this many filtered characters are ignored."""
GUARANTEE_CHARACTERS = 30
"""copydetect's default: matches at least this long are always found."""
WINDOW = GUARANTEE_CHARACTERS - NOISE_CHARACTERS + 1
UTF8_BOM = "\ufeff"


class Source(Struct, frozen=True):
    """A source file's text (decoded leniently: students' files are not all UTF-8) and its language."""

    name: str
    text: str
    language: Language

    @classmethod
    def of(cls, name: str, content: bytes) -> Source:
        """`name` picks the language by its extension, as `judge run` does (SubmissionError if none)."""
        text = content.decode("utf-8", errors="replace").removeprefix(UTF8_BOM).replace("\r\n", "\n")
        return cls(name, text, detect_language(Path(name)))


def fingerprint(source: Source, boilerplate: np.ndarray) -> CodeFingerprint:
    """The fingerprint of `source` without the hashes in `boilerplate`. The lexer is chosen from the language's
    own file name (Main.py, Main.java, main.c, main.cpp), never from a student's file name."""
    return CodeFingerprint(
        source.language.source_name, NOISE_CHARACTERS, WINDOW, boilerplate=boilerplate, fp=io.StringIO(source.text)
    )


def boilerplate_hashes(templates: Iterable[Source]) -> np.ndarray:
    """Every hash of the teacher's template files: code a whole class shares by design."""
    hashes: set[int] = set()
    for template in templates:
        hashes |= fingerprint(template, np.array([], dtype=np.int64)).hashes
    return np.array(sorted(hashes), dtype=np.int64)
