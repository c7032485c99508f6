"""Telling a problem package from our own layout: a `data/` folder, and a problem.yaml without our keys."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

DATA_FOLDER = "data"
OUR_KEYS = frozenset({"id", "title", "time_limit", "memory_limit"})
"""Keys only our problem.yaml has (a package's limits live under `limits:`); any one of them makes it ours."""


def is_package(root: Path, spec: Mapping[Any, Any]) -> bool:
    """Whether the folder `root`, whose problem.yaml reads as `spec`, is a problem package."""
    return (root / DATA_FOLDER).is_dir() and not (root / DATA_FOLDER).is_symlink() and not OUR_KEYS & set(spec)
