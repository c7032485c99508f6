"""A synthetic class for `judge similarity`, made from the project's reference submissions.

30 students in the by-student layout (`<student>/<problem>.<ext>`): students s01-s15 hand in 9663, s16-s30 hand
in 2580. Each problem has independent solutions (reference submissions with different approaches, which score
low against each other) and copies of some of them disguised the ways students do: names changed, comments
rewritten, reformatted, functions reordered, and one Python program rewritten with while loops instead of for
loops (translated_flags_while.py, written by hand from flags.py). Every copy is made here by a transformation
of its original, so the truth is known: two files are a copy pair when they come from the same original.

    python tests/similarity/similarity_class/make_class.py OUT    # write the class into OUT and print the copy pairs
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from pygments import lex
from pygments.lexers import get_lexer_for_filename
from pygments.token import Comment, Name

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SUBMISSIONS = ROOT / "submissions"

Transform = Callable[[str], str]


@dataclass(frozen=True)
class Entry:
    """One student's file: which original it comes from, and how it was disguised."""

    student: str
    problem_id: str
    original: str  # path under submissions/, or a file beside this script
    transforms: tuple[str, ...] = ()


# ---------------------------------------------------------------- Python disguises (tokenize and ast)

_KEEP = frozenset(dir(builtins)) | {
    "sys", "stdin", "stdout", "readline", "read", "write", "split", "join", "append", "main", "self",
}


def _defined_names(text: str) -> list[str]:
    """Names the program itself defines: functions, parameters, assigned variables (in first-seen order)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
    return [name for name in dict.fromkeys(names) if name not in _KEEP and name != "_"]


def py_rename(text: str) -> str:
    """Every name the program defines replaced by another word, comments and layout kept."""
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa", "lam", "mu",
             "nu", "xi", "omi", "pi_", "rho", "sig", "tau", "ups", "phi", "chi", "psi", "omg"]
    mapping = {name: f"{words[i % len(words)]}{i // len(words) or ''}" for i, name in enumerate(_defined_names(text))}
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    renamed = [(kind, mapping.get(value, value) if kind == tokenize.NAME else value, *rest)
               for kind, value, *rest in tokens]
    return tokenize.untokenize(renamed)


def py_recomment(text: str) -> str:
    """Old comments removed, new ones of the student's own added above every function and loop."""
    tokens = [token for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type != tokenize.COMMENT]
    bare = tokenize.untokenize(tokens)
    out = ["# my solution, written for the assignment"]
    for line in bare.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("def ", "for ", "while ")):
            out.append(f"{line[: len(line) - len(stripped)]}# {stripped.split()[0]} step: see notes from class")
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def py_reformat(text: str) -> str:
    """The program as ast.unparse writes it: comments gone, spacing, quotes and parentheses normalised."""
    return ast.unparse(ast.parse(text)) + "\n"


def py_reorder(text: str) -> str:
    """The module's functions in reverse order (other statements stay where they were), nested ones too."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            slots = [i for i, statement in enumerate(body) if isinstance(statement, ast.FunctionDef)]
            functions = [body[i] for i in slots]
            for slot, function in zip(slots, reversed(functions)):
                body[slot] = function
    return ast.unparse(tree) + "\n"


# ---------------------------------------------------------------- C, C++ and Java disguises (pygments tokens)

_C_KEEP = {"main", "args", "printf", "scanf", "in", "out"}
_RENAMED = (Name, Name.Function, Name.Variable)
"""Exactly these token kinds: Name.Builtin (true, false, bool in some lexers) is the language's, not the student's."""


def c_rename(text: str, file_name: str) -> str:
    """Lower-case names that are not a library's member (after a dot) get new names; types and library calls
    (capitalised, or starting with __) stay."""
    out, previous, mapping = [], "", {}
    for kind, value in lex(text, get_lexer_for_filename(file_name)):
        if (kind in _RENAMED and value[:1].islower() and previous != "." and value not in _C_KEEP
                and not value.startswith("__")):
            value = mapping.setdefault(value, f"v{len(mapping)}_{value[:1]}")
        out.append(value)
        if value.strip():
            previous = value
    return "".join(out)


def c_recomment(text: str, file_name: str) -> str:
    """Every comment replaced by one of the student's own."""
    out = []
    for kind, value in lex(text, get_lexer_for_filename(file_name)):
        if kind in Comment.Single:
            value = "// handled here\n"
        elif kind in Comment.Multiline:
            value = "/* see above */"
        out.append(value)
    return "".join(out)


def c_reformat(text: str, _: str) -> str:
    """Two-space indentation, a blank line after every closing brace, trailing spaces gone."""
    lines = []
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        lines.append(" " * ((len(line) - len(stripped)) // 2) + stripped.rstrip())
        if stripped.startswith("}"):
            lines.append("")
    return "\n".join(lines) + "\n"


PYTHON: dict[str, Transform] = {"rename": py_rename, "recomment": py_recomment, "reformat": py_reformat,
                                "reorder": py_reorder}
C_FAMILY = {"rename": c_rename, "recomment": c_recomment, "reformat": c_reformat}


def disguise(text: str, file_name: str, transforms: tuple[str, ...]) -> str:
    for name in transforms:
        text = PYTHON[name](text) if file_name.endswith(".py") else C_FAMILY[name](text, file_name)
    return text


# ---------------------------------------------------------------- the class

def _students(first: int, entries: list[tuple[str, tuple[str, ...]]], problem_id: str) -> list[Entry]:
    return [Entry(f"s{first + i:02d}", problem_id, original, transforms)
            for i, (original, transforms) in enumerate(entries)]


N_QUEEN = "9663/accepted/bitmask_mirror.py"
N_QUEEN_VISITED = "9663/accepted/port_java_visited.py"
N_QUEEN_JAVA = "9663/accepted/backtrack_java.java"
N_QUEEN_CPP = "9663/accepted/bitmask_cpp.cpp"
SUDOKU_FLAGS = "2580/accepted/flags.py"
SUDOKU_MRV = "2580/accepted/bitmask_mrv.py"
SUDOKU_CPP = "2580/accepted/bitmask_cpp.cpp"
SUDOKU_JAVA = "2580/accepted/flags_java.java"

CLASS: tuple[Entry, ...] = (
    *_students(1, [
        (N_QUEEN, ()),
        (N_QUEEN, ("rename",)),
        (N_QUEEN, ("recomment", "reformat")),
        (N_QUEEN_VISITED, ()),
        (N_QUEEN_VISITED, ("reorder", "rename")),
        (N_QUEEN_JAVA, ()),
        (N_QUEEN_JAVA, ("rename", "recomment")),
        (N_QUEEN_CPP, ()),
        (N_QUEEN_CPP, ("reformat", "rename")),
        ("9663/time_limit_exceeded/all_permutations.py", ()),
        ("9663/memory_limit_exceeded/memo_every_board.py", ()),
        ("9663/wrong_answer/prints_n.py", ()),
        ("9663/output_limit_exceeded/scanf_until_eof_cpp.cpp", ()),
        ("iterative_queens.java", ()),
        (N_QUEEN_VISITED, ("reformat", "recomment")),
    ], "9663"),
    *_students(16, [
        (SUDOKU_FLAGS, ()),
        ("translated_flags_while.py", ()),
        (SUDOKU_FLAGS, ("reorder", "rename")),
        (SUDOKU_MRV, ()),
        (SUDOKU_MRV, ("rename", "recomment")),
        (SUDOKU_MRV, ("reformat",)),
        (SUDOKU_CPP, ()),
        (SUDOKU_CPP, ("rename", "recomment", "reformat")),
        (SUDOKU_JAVA, ()),
        (SUDOKU_JAVA, ("rename",)),
        ("2580/accepted/port_java_blanklist.py", ()),
        ("2580/memory_limit_exceeded/bfs_keeps_every_board.py", ()),
        ("2580/time_limit_exceeded/try_all_fillings.py", ()),
        ("2580/accepted/port_java_blanklist.py", ("rename", "reformat")),
        (SUDOKU_FLAGS, ("recomment",)),
    ], "2580"),
)

_SAME_ORIGIN = {"translated_flags_while.py": SUDOKU_FLAGS}
"""The hand-written translation counts as a copy of the program it was translated from."""


def origin(entry: Entry) -> str:
    return _SAME_ORIGIN.get(entry.original, entry.original)


def copy_pairs(entries: tuple[Entry, ...] = CLASS) -> set[tuple[str, str, str]]:
    """(problem, student, student) for every two files from the same original."""
    return {(a.problem_id, a.student, b.student) for a, b in combinations(entries, 2)
            if a.problem_id == b.problem_id and origin(a) == origin(b)}


def write_class(out: Path, entries: tuple[Entry, ...] = CLASS) -> None:
    for entry in entries:
        source = HERE / entry.original if (HERE / entry.original).is_file() else SUBMISSIONS / entry.original
        text = disguise(source.read_text(encoding="utf-8"), source.name, entry.transforms)
        folder = out / entry.student
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{entry.problem_id}{source.suffix}").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write_class(Path(sys.argv[1]))
    for pair in sorted(copy_pairs()):
        print(*pair)
