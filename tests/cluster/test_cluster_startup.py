"""The cluster's code costs `judge run` nothing (issue 21): neither cryptography nor Dask nor judge/cluster/ is
imported by a run or its help, and `judge cluster --help` needs neither Dask nor cryptography."""

from __future__ import annotations

from pathlib import Path

from conftest import program, write_problem
from startup_helpers import among, loaded_by

CLUSTER_ONLY = ("cryptography", "judge.cluster", "judge.cli.cluster", "distributed", "dask")


def test_run_imports_nothing_of_the_cluster(tmp_path: Path) -> None:
    problem = write_problem(tmp_path / "problem", {"1": ("1 2\n", "3\n")})
    answer, modules = loaded_by("run", problem, program("sum.py"), "--sandbox", "none")
    assert answer["code"] == 0 and among(modules, CLUSTER_ONLY) == []
    answer, modules = loaded_by("run", "--help")
    assert answer["code"] == 0 and among(modules, CLUSTER_ONLY) == []


def test_cluster_help_loads_neither_dask_nor_cryptography() -> None:
    answer, modules = loaded_by("cluster", "--help")
    assert answer["code"] == 0 and all(word in str(answer["report"]) for word in ("init", "scheduler", "worker"))
    assert among(modules, ("cryptography", "distributed", "dask")) == []
