"""problem.yaml and languages.yaml are validated once per content and schema, then read from the judge's cache:
an edit, another schema or a damaged record means validating again, and an error is never cached."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge import tool_cache
from judge.errors import SpecError
from judge.problems import folder as problem_module
from judge.problems.folder import load_problem

from conftest import write_problem


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A private cache, and the list of problem.yaml texts validated (not read from the cache) from now on."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    seen: list[str] = []
    validate = problem_module._validate

    def counting(text: str, spec_path: Path) -> dict[str, object]:
        seen.append(text)
        return validate(text, spec_path)

    monkeypatch.setattr(problem_module, "_validate", counting)
    return seen


def test_a_spec_is_validated_once(tmp_path: Path, validations: list[str]) -> None:
    root = write_problem(tmp_path / "p", checker={"name": "float", "absolute": 1e-6}, time_limit=2)
    first, second = load_problem(root), load_problem(root)
    assert len(validations) == 1
    assert first.spec == second.spec
    assert second.spec.time_limit == 2.0 and isinstance(second.spec.time_limit, float)
    assert second.spec.checker.name == "float" and dict(second.spec.checker.options) == {"absolute": 1e-6}


def test_an_edit_is_validated_again_and_errors_are_never_cached(tmp_path: Path, validations: list[str]) -> None:
    root = write_problem(tmp_path / "p")
    load_problem(root)
    spec = root / "problem.yaml"
    spec.write_text(spec.read_text() + "tme_limit: 3\n")
    for _ in range(2):
        with pytest.raises(SpecError, match="tme_limit: unknown key"):
            load_problem(root)
    assert len(validations) == 3


def test_another_schema_is_validated_again(tmp_path: Path, validations: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_problem(tmp_path / "p")
    load_problem(root)
    schema = tmp_path / "schema.py"
    schema.write_text("# another version of the judge\n")
    monkeypatch.setattr(problem_module, "SCHEMA_MODULE", schema)
    load_problem(root)
    load_problem(root)
    assert len(validations) == 2


def test_a_damaged_record_is_validated_again(tmp_path: Path, validations: list[str]) -> None:
    root = write_problem(tmp_path / "p")
    load_problem(root)
    (record,) = (tool_cache.cache_dir() / "specs").iterdir()
    for damage in ('{"id": "t"}', "not json", '{"checker": {"name": "boj"}, "surprise": 1}'):
        record.write_text(damage)
        assert load_problem(root).spec.title == "Test problem"
    assert len(validations) == 4


def test_the_language_table_is_validated_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.languages import catalog

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    seen: list[str] = []
    validate = catalog._validate_table
    monkeypatch.setattr(catalog, "_validate_table", lambda text, source: seen.append(source) or validate(text, source))
    first, second = catalog._packaged_table(), catalog._packaged_table()
    assert first == second and "python3" in first
    assert len(seen) == 1


def test_the_seccomp_program_is_compiled_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.runner import syscall_filter

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    compile_filter = syscall_filter.compile_filter.__wrapped__  # without the in-process memo
    first = compile_filter(True, True)
    if isinstance(first, str):
        pytest.skip(first)
    compiled = syscall_filter._compiled
    monkeypatch.setattr(syscall_filter, "_compiled", lambda *args: pytest.fail("compiled again"))
    assert compile_filter(True, True) == first
    (record,) = (tool_cache.cache_dir() / "seccomp").iterdir()
    record.write_text('"not hex"')
    monkeypatch.setattr(syscall_filter, "_compiled", compiled)
    assert compile_filter(True, True) == first
    assert compile_filter(False, True) != first  # the root box's filter also refuses new user namespaces
