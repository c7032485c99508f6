"""What a source file is: its language (by `--lang`, else by extension) and, for Java, the class to run."""

from __future__ import annotations

import re
from pathlib import Path

from judge.errors import SubmissionError
from judge.languages.catalog import DEFAULT_MAIN, LANGUAGES, SCRIPTS, SCRIPTS_LANGUAGE, Language

_JAVA_NOISE = re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.DOTALL)
_JAVA_CLASS = re.compile(rb"\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)")
_JAVA_PUBLIC = re.compile(
    rb"\bpublic\s+(?:(?:final|abstract|static)\s+)*(?:class|interface|enum|record)\s+"
    rb"([A-Za-z_$][\w$]*)"
)
JAVA_MAIN = re.compile(rb"\bstatic\s+void\s+main\s*\(")
C_MAIN = re.compile(rb"\bmain\s*\(")
"""A C or C++ file defining `main` (comments aside: `_JAVA_NOISE` strips them, which C's are like)."""


def main_name(language: Language, source: bytes, file_name: str, *, boj: bool) -> str:
    """The class a main_class language (Java) runs. With `boj`, always `Main`: BOJ saves every submission as
    Main.java and runs class Main, so a public class of another name is a CE there and here. Otherwise (problem
    packages, a problem's own programs): `Main` when the source declares it, else its public class (javac wants
    the file named after it), else the class named after the file (`Different.java`, as problem packages name
    them), else the one declaring `static void main`, else `Main` (and the compiler says what is wrong)."""
    if language.key == SCRIPTS_LANGUAGE:  # a `build` or `run` script keeps its name: the other calls it by it
        return file_name
    if not language.main_class or boj:
        return DEFAULT_MAIN
    code = _JAVA_NOISE.sub(b" ", source)
    declared = [(match.start(), match.group(1).decode("ascii")) for match in _JAVA_CLASS.finditer(code)]
    names = [name for _, name in declared]
    stem = Path(file_name).stem
    if DEFAULT_MAIN in names:
        return DEFAULT_MAIN
    public = _JAVA_PUBLIC.search(code)
    if public is not None:
        return public.group(1).decode("ascii")
    if stem in names:
        return stem
    holder = JAVA_MAIN.search(code)
    if holder is not None:
        before = [name for start, name in declared if start < holder.start()]
        if before:
            return before[-1]
    return DEFAULT_MAIN


def declares_main(language: Language, source: bytes) -> bool:
    """Whether `source` holds the program's entry point: Java's `static void main(`, else a `main(` (C, C++),
    outside comments and strings. Picks the main source of a submission of several files (sources.main_file)."""
    return bool((JAVA_MAIN if language.main_class else C_MAIN).search(_JAVA_NOISE.sub(b" ", source)))


def detect_language(source: Path, override: str | None = None) -> Language:
    """The language named by `--lang`, else a program's `build` or `run` script (sources.main_file and
    programs/build.py pick one in a folder), else the one whose extension the file has."""
    if override is not None:
        if override not in LANGUAGES:
            raise SubmissionError(f"--lang {override}: unknown language; choose one of {', '.join(LANGUAGES)}")
        return LANGUAGES[override]
    if source.name in SCRIPTS:
        return LANGUAGES[SCRIPTS_LANGUAGE]
    for language in LANGUAGES.values():
        if source.suffix.lower() in language.extensions:
            return language
    known = ", ".join(ext for language in LANGUAGES.values() for ext in language.extensions)
    raise SubmissionError(f"{source}: unknown language for extension '{source.suffix}'; use one of {known} or --lang")
