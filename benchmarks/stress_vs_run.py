"""Does `judge stress` find what `judge run` finds? For each program: its verdict on the bundled tests, how many
tests fail and how big the smallest failing one is, then what `judge stress` finds with its default budget, how
big, after how many inputs and how long. A script for the README's table, not a test.

    python benchmarks/stress_vs_run.py [--seed 1] [PROGRAM ...]   # default: tests/stress/programs/*/*

The problem of a program is the name of its folder (tests/stress/programs/2580/x.py is judged on problems/2580).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.problems.load import load_problem_folder
from judge.stress.inputs import StrategyInputs, input_source


def judge_json(*args: str | Path) -> dict:
    ran = subprocess.run([sys.executable, "-m", "judge", *map(str, args), "--format", "json"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    try:
        return json.loads(ran.stdout)
    except json.JSONDecodeError:
        return {"error": " ".join(ran.stderr.split())[:200]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="1")
    parser.add_argument("programs", nargs="*", type=Path)
    args = parser.parse_args()
    programs = args.programs or sorted((ROOT / "tests/stress/programs").glob("*/*"))
    print("| program | run | failing tests | smallest failing | stress | size | inputs judged | s |")
    print("|---|---|---|---|---|---|---|---|")
    for program in programs:
        problem_dir = ROOT / "problems" / program.parent.name
        problem = load_problem_folder(problem_dir)
        source = input_source(problem)
        size = source.size if isinstance(source, StrategyInputs) else (lambda text: f"{len(text)} bytes")
        ran = judge_json("run", problem_dir, program)
        failing = [case["name"] for case in ran.get("cases", []) if case["verdict"] != "AC"]
        sizes = {name: size((problem_dir / "tests" / f"{name}.in").read_text()) for name in failing}
        smallest = min(sizes.values(), key=lambda text: int(text.split("=")[-1].split()[0]), default="")
        stressed = judge_json("stress", problem_dir, program, "--seed", args.seed, "-q")
        failure = stressed.get("failure")
        print(f"| `{program.parent.name}/{program.name}` | {ran.get('verdict', ran.get('error'))} | "
              f"{len(failing)}/{len(ran.get('cases', []))} | {smallest} | "
              f"{failure['verdict'] if failure else stressed.get('error', 'nothing')} | {stressed.get('size', '')} | "
              f"{stressed.get('judged', '')} | {stressed.get('seconds', '')} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
