"""Generator for 1008 (A/B): writes tests/<name>.in; `judge answers` then writes each .ans from the reference.

    python3 generator.py              # (re)write the inputs next to this file, in tests/
    python3 generator.py --seed N     # print one random input, write nothing (what `judge stress` runs)
    judge answers examples/problems/1008 --submissions-dir examples/submissions

Deterministic (a fixed seed). The judge runs only the --seed form, confined, and only when the problem has no
strategy.py.
"""

import argparse
import random
from pathlib import Path

SEED = 1008


def inputs() -> dict[str, str]:
    rng = random.Random(SEED)
    tests = {"sample1": "1 3\n", "1-whole": "8 2\n", "2-smallest": "1 9\n", "3-largest": "9 1\n",
             "4-repeating": "2 7\n"}
    for index in range(5, 8):
        tests[f"{index}-random"] = f"{rng.randint(1, 9)} {rng.randint(1, 9)}\n"
    return tests


def one_input(seed: int) -> str:
    """A random legal input: two digits from 1 to 9."""
    rng = random.Random(seed)
    return f"{rng.randint(1, 9)} {rng.randint(1, 9)}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, help="print one input from this seed instead of writing tests/")
    seed = parser.parse_args().seed
    if seed is not None:
        print(one_input(seed), end="")
        return
    folder = Path(__file__).resolve().parent / "tests"
    folder.mkdir(exist_ok=True)
    for name, text in inputs().items():
        (folder / f"{name}.in").write_text(text, encoding="ascii")


if __name__ == "__main__":
    main()
