"""`judge stress` on every bundled wrong-answer, run-time-error and accepted submission: what it finds, how big
the shrunk input is, and how long it took. A script for the README's figures, not a test.

    python benchmarks/stress_bundled.py [--budget 60] [--seed 1] [--folders wrong_answer,run_time_error,accepted]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="60")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--folders", default="wrong_answer,run_time_error,accepted")
    args = parser.parse_args()
    print("submission | found | size | inputs judged | search s | wall s (with compiling both)")
    for folder in args.folders.split(","):
        for source in sorted(ROOT.glob(f"submissions/*/{folder}/*")):
            problem = ROOT / "problems" / source.parent.parent.name
            started = time.monotonic()
            ran = subprocess.run(
                [sys.executable, "-m", "judge", "stress", str(problem), str(source), "--budget", args.budget,
                 "--seed", args.seed, "--format", "json", "-q"],
                cwd=ROOT, capture_output=True, text=True, check=False)
            wall = time.monotonic() - started
            try:
                result = json.loads(ran.stdout)
            except json.JSONDecodeError:
                print(f"{source.relative_to(ROOT)} | error: {ran.stderr.strip()} | | | | {wall:.1f}")
                continue
            failure = result["failure"]
            found = failure["verdict"] if failure else "nothing"
            print(f"{source.relative_to(ROOT)} | {found} | {result['size']} | {result['judged']} | "
                  f"{result['seconds']} | {wall:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
