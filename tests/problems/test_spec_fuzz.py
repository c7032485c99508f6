"""Fuzzing problem.yaml (issue 4): every malformed spec is a SpecError of one line naming the file (and the key).

Hypothesis mutates a valid problem.yaml: keys dropped, values of the wrong type, unknown keys, a broken checker,
documents that are not a mapping, text that is not YAML, and binary garbage. `load_problem` must either load the
folder or raise `SpecError` whose message starts with the file's path and holds no line break; a mutation of known
keys must be named by the message. A few documents go through the CLI too: exit 2, one line on stderr, no traceback.
Derandomized, so a run is reproducible; about 100 examples per property keep it fast.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import write_problem
from judge.errors import SpecError
from judge.problems.folder import load_problem
from judge.problems.model import SPEC_FILE

REPO = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

VALID = {
    "id": "fuzz",
    "title": "Fuzzed problem",
    "source": "made up",
    "time_limit": 1,
    "memory_limit": 128,
    "output_limit": 1,
    "checker": {"name": "float", "absolute": 1e-6},
    "language_allowance": True,
}
KNOWN_KEYS = [*VALID, "validator"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12), st.sampled_from(["", "0", "-1", "1e9", "fast", "boj", "checker.py", "validator.py", "~"]),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                            max_size=3), max_leaves=6)
# YAML reads NEL and the Unicode line and paragraph separators in a plain key as line breaks: a key holding one
# would not come back as written, so the generator leaves them out.
key_characters = st.characters(codec="utf-8", exclude_characters="\x85\u2028\u2029")
unknown_keys = st.text(key_characters, min_size=1, max_size=12).filter(lambda key: key not in KNOWN_KEYS)


@st.composite
def mutated_specs(draw: st.DrawFn) -> tuple[bytes, set[str]]:
    """A valid spec with one to three keys dropped, retyped or added; returns the YAML and the keys touched."""
    document: dict[object, object] = dict(VALID)
    touched: set[str] = set()
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.sampled_from(["drop", "retype", "unknown", "checker"]))
        if action == "drop":
            key = draw(st.sampled_from(KNOWN_KEYS))
            document.pop(key, None)
        elif action == "retype":
            key = draw(st.sampled_from(KNOWN_KEYS))
            document[key] = draw(values)
        elif action == "unknown":
            key = draw(unknown_keys)
            document[key] = draw(values)
        else:
            key = "checker"
            document[key] = {"name": draw(st.sampled_from(["boj", "float", "tokens", "exact", "nope"])),
                             draw(st.text(max_size=8)): draw(values)}
        touched.add(key)
    return yaml.safe_dump(document, allow_unicode=True).encode(), touched


def corrupted(text: bytes, at: int, junk: bytes) -> bytes:
    """Part of a valid document replaced by junk: half-written files, stray tabs, broken quotes."""
    at %= len(text) + 1
    return text[:at] + junk + text[at + len(junk):]


VALID_TEXT = yaml.safe_dump(VALID).encode()
broken_documents = st.one_of(
    st.builds(corrupted, st.just(VALID_TEXT), st.integers(0, 10_000),
              st.sampled_from([b"\t", b": :", b"'", b'"', b"[", b"{", b"- x", b"\x00", b"\xff\xfe", b"%YAML 9",
                               b"&a *b", b"!!python/object:os.system ''", b"? ", b"\r\n  \t"])),
    st.text(max_size=120).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.binary(max_size=120),
    values.map(lambda value: yaml.safe_dump(value, allow_unicode=True).encode()),
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One problem folder with a test case; each example overwrites its problem.yaml."""
    return write_problem(tmp_path_factory.mktemp("fuzz") / "problem", id="fuzz", title="Fuzzed problem")


def load_or_spec_error(folder: Path, spec: bytes) -> SpecError | None:
    """Load the folder with `spec` as its problem.yaml; the SpecError if it is refused (anything else escapes)."""
    (folder / SPEC_FILE).write_bytes(spec)
    try:
        load_problem(folder)
    except SpecError as error:
        message = str(error)
        assert message.startswith(f"{folder / SPEC_FILE}: "), message
        assert "\n" not in message and "\r" not in message, f"not one line: {message!r}"
        return error
    return None


@FUZZ
@given(mutated_specs())
def test_mutated_keys_load_or_name_the_key(folder: Path, mutation: tuple[bytes, set[str]]) -> None:
    spec, touched = mutation
    error = load_or_spec_error(folder, spec)
    if error is not None:
        rest = str(error).removeprefix(f"{folder / SPEC_FILE}: ")
        named = [key for key in touched if rest.startswith((f"{key}:", f"{key}.", f"{key!r}:", f"{key!r}."))]
        assert named, f"names none of the keys the mutation touched, {sorted(touched)}: {error}"


@FUZZ
@given(broken_documents)
@example(b"")
@example(b"id: [unclosed\n")
@example(b"\xff\xfe\x00garbage")
@example(b"- just\n- a list\n")
@example(b"id: x\nid: y\n")
def test_broken_documents_load_or_are_one_line_spec_errors(folder: Path, spec: bytes) -> None:
    load_or_spec_error(folder, spec)


# Nested aliases: 405 bytes that PyYAML expands into 9^9 strings ("billion laughs"); once 100 % CPU and 1.4 GB.
ALIAS_BOMB = ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]\n" for previous, name in zip("abcdefgh", "bcdefghi")
)).encode()

# Inputs that once escaped as tracebacks or two-line messages: PyYAML raises ValueError / RecursionError, not
# YAMLError, for impossible dates, bad explicit tags and deep nesting; a key with a line break split the message.
TRICKY_DOCUMENTS = {
    "impossible date": b"id: x\ntitle: y\ntime_limit: 1\nmemory_limit: 64\nsource: 2021-13-01\n",
    "explicit float tag": b"time_limit: !!float fast\n",
    "explicit int tag": b"memory_limit: !!int 0x\n",
    "deep nesting": b"[" * 5000,
    "key with a line break": b'"bad\\nkey": 1\nid: x\ntitle: y\ntime_limit: 1\nmemory_limit: 64\n',
    "alias bomb": ALIAS_BOMB,
    "over 64 KiB": b"id: x\n" + b"#" * 70_000 + b"\n",
}


@pytest.mark.parametrize("spec", TRICKY_DOCUMENTS.values(), ids=TRICKY_DOCUMENTS.keys())
def test_tricky_documents_are_one_line_spec_errors(folder: Path, spec: bytes) -> None:
    load_or_spec_error(folder, spec)


CLI_CASES = {
    "unknown key": (b"id: x\ntitle: y\ntime_limit: 1\nmemory_limit: 64\ntime_limt: 2\n", "time_limt"),
    "wrong type": (b"id: x\ntitle: y\ntime_limit: fast\nmemory_limit: 64\n", "time_limit"),
    "missing key": (b"id: x\ntitle: y\ntime_limit: 1\n", "memory_limit"),
    "not YAML": (b"id: [x\ntitle: y\n", "line"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "cannot read"),
    "a list": (b"- id\n- title\n", "mapping"),
    "alias bomb": (ALIAS_BOMB, "line 2: aliases (*name) are not allowed"),
}


@pytest.mark.parametrize(("spec", "named"), CLI_CASES.values(), ids=CLI_CASES.keys())
def test_cli_exits_2_with_one_line(tmp_path: Path, spec: bytes, named: str) -> None:
    problem = write_problem(tmp_path / "problem")
    (problem / SPEC_FILE).write_bytes(spec)
    source = tmp_path / "main.py"
    source.write_text("print(3)\n")
    done = subprocess.run([sys.executable, "-m", "judge", "run", str(problem), str(source), "--sandbox", "none"],
                          capture_output=True, text=True, cwd=REPO, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"judge: {problem / SPEC_FILE}: "), lines[0]
    assert named in lines[0]
    assert done.stdout == ""
