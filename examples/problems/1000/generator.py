"""Generator for 1000 (A+B): writes tests/<name>.in; `judge answers` then writes each .ans from the reference.

    python3 generator.py              # (re)write the inputs next to this file, in tests/
    judge answers examples/problems/1000 --submissions-dir examples/submissions

Deterministic (a fixed seed), so a rerun rewrites byte-identical files. The judge never runs this file.
"""

import random
from pathlib import Path

SEED = 1000


def inputs() -> dict[str, str]:
    rng = random.Random(SEED)
    tests = {"sample1": "1 2\n", "1-smallest": "1 1\n", "2-largest": "9 9\n", "3-carry": "5 5\n"}
    for index in range(4, 8):
        tests[f"{index}-random"] = f"{rng.randint(1, 9)} {rng.randint(1, 9)}\n"
    return tests


def main() -> None:
    folder = Path(__file__).resolve().parent / "tests"
    folder.mkdir(exist_ok=True)
    for name, text in inputs().items():
        (folder / f"{name}.in").write_text(text, encoding="ascii")


if __name__ == "__main__":
    main()
