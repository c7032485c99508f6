"""`judge grade --stress` in the terminal (issue 25, part 3): after the progress, a line per pair whose search found
something, one line per problem that cannot be searched (checked once, not per student), and one line counting the
pairs in which nothing was found. In process, on tiny problems, with a one-second budget."""

from __future__ import annotations

from pathlib import Path

from grade_helpers import ADD_TESTS, MUL_TESTS, SOURCES, judge_main, write_problem

import judge.grading.stress_pairs as stress_pairs

STRATEGY = ("from hypothesis import strategies as st\n"
            "def inputs():\n    return st.tuples(st.integers(-9, 9), st.integers(-9, 9)).map(lambda p: f'{p[0]} {p[1]}\\n')\n")

HOSTILE = "mal\x1b]52;c;aGk=\x07"
"""A student's folder name that, printed raw, would write the terminal's clipboard (OSC 52)."""


def flaky(marker: Path) -> str:
    """Wrong on its first run only (it leaves `marker`): WA when graded, right on every input stress tries."""
    return (f"import os\na, b = map(int, input().split())\nfirst = not os.path.exists({str(marker)!r})\n"
            f"open({str(marker)!r}, 'w').close()\nprint(a + b + first)\n")


def test_grade_stress_prints_a_line_per_finding_and_one_per_unsearchable_problem(tmp_path, monkeypatch, capsys):
    problems = tmp_path / "problems"
    (write_problem(problems / "add", "add", ADD_TESTS) / "strategy.py").write_text(STRATEGY)
    write_problem(problems / "mul", "mul", MUL_TESTS)  # neither strategy.py nor generator.py
    (tmp_path / "subs" / "add" / "accepted").mkdir(parents=True)
    (tmp_path / "subs" / "add" / "accepted" / "ref.py").write_text(SOURCES["add_ac"])
    sources = {
        ("bob", "add"): SOURCES["add_wa"], (HOSTILE, "add"): SOURCES["add_wa"], ("erin", "add"): flaky(tmp_path / "ran"),
        ("alice", "add"): SOURCES["add_ac"], ("carol", "mul"): SOURCES["mul_wa"], ("dave", "mul"): SOURCES["mul_wa"],
    }
    for (student, problem), source in sources.items():
        (tmp_path / "class" / student).mkdir(parents=True, exist_ok=True)
        (tmp_path / "class" / student / f"{problem}.py").write_text(source)
    resolved: list[str] = []
    setup = stress_pairs.search_setup
    monkeypatch.setattr(stress_pairs, "search_setup",
                        lambda problem, *rest: resolved.append(problem.id) or setup(problem, *rest))

    code = judge_main("grade", problems, tmp_path / "class", "--out", tmp_path / "out", "--stress", "--stress-budget",
                      "1", "--submissions-dir", tmp_path / "subs", "-j", "1", "--sandbox", "none")

    err = capsys.readouterr().err
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("stress: ")]
    assert lines == [
        'stress: bob/add: WA at 6 characters ("10 20"), from test 2',
        'stress: mal\\x1b]52;c;aGk=\\x07/add: WA at 6 characters ("10 20"), from test 2',
        f"stress: mul (2 WA pairs not searched): {problems / 'mul'}: no strategy.py or generator.py; write a "
        "strategy.py defining inputs() (a Hypothesis strategy of input texts) to stress-test this problem",
        "stress: 1 pair searched, nothing found",  # erin, right on every input after the grading's run
    ], err
    assert "\x1b" not in err and "\x07" not in err
    assert sorted(resolved) == ["add", "mul"]  # once per problem, not once per student
    assert err.index("stress: ") < err.index("graded 6 pairs")
