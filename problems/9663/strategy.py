"""Stress inputs for problem 9663 (N-Queen), for `judge stress`: one integer N from 1 to 14.

Hypothesis shrinks towards N = 1, so a failure is reported at the smallest N that shows it. There are only 14
inputs; `judge stress` judges each one once, so even a slow accepted program costs at most one run per N.
Runs inside the judge's process (it is the teacher's code, like generator.py). A failing bundled test is
simplified to every smaller N, smallest first (simplify).
"""

from collections.abc import Iterator

from hypothesis import strategies as st

LOWEST = 1
HIGHEST = 14


def inputs() -> st.SearchStrategy[str]:
    """The legal inputs: `N\\n`."""
    return st.integers(LOWEST, HIGHEST).map(lambda n: f"{n}\n")


def magnitude(text: str) -> int:
    """How big an input is, as a number: N."""
    return int(text)


def size(text: str) -> str:
    """How big an input is, as the report says it."""
    return f"N={text.strip()}"


def simplify(text: str, answer: str) -> Iterator[str]:
    """Every smaller N, smallest first (the answer does not help here)."""
    return (f"{n}\n" for n in range(LOWEST, int(text)))
