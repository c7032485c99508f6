"""What a class's results were measured under, for the gradebook's views: a line per class run (one `judge grade`
command's results share the host record it read at its start), and the results judged under weaker conditions
than the rest (a weaker containment or no sandbox, or a machine busier than its CPUs), which a teacher should judge
again before trusting a time near its limit."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from msgspec import Struct
from msgspec.structs import asdict

from judge.grading.gradebook import Gradebook
from judge.judging.provenance import strength


class ClassRun(Struct, frozen=True):
    """The results that one command judged on one machine, and what they were measured under."""

    started: str
    machine: str
    conditions: str
    results: int
    load_range: str

    @property
    def line(self) -> str:
        return (
            f"{self.started} on {self.machine}: {self.conditions}; load average {self.load_range}; "
            f"{self.results} results"
        )

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "line": self.line}


def class_runs(gradebook: Gradebook) -> list[ClassRun]:
    """One line per class run, oldest first; results from an older judge (no provenance) are left out."""
    groups: dict[tuple[str, float], list[dict[str, Any]]] = {}
    for record in _records(gradebook):
        host = record.get("host") or {}
        groups.setdefault((str(host.get("machine", "?")), float(host.get("read_at", 0))), []).append(record)
    runs = []
    for (machine, read_at), records in sorted(groups.items(), key=lambda item: item[0][1]):
        loads = [float(record.get("load_average", -1)) for record in records]
        runs.append(
            ClassRun(
                started=datetime.fromtimestamp(read_at, UTC).strftime("%Y-%m-%d %H:%M UTC"),
                machine=machine,
                conditions=_conditions(records),
                results=len(records),
                load_range=f"{min(loads):g}–{max(loads):g}" if min(loads) != max(loads) else f"{loads[0]:g}",
            )
        )
    return runs


def weaker_pairs(gradebook: Gradebook) -> set[tuple[str, str]]:
    """The (student, problem) pairs whose result was judged under weaker conditions than the class's best."""
    rated = {
        pair: strength(stored.result.provenance)
        for pair, stored in gradebook.results.items()
        if stored.result is not None and stored.result.provenance
    }
    best = max(rated.values(), default=None)
    return {pair for pair, rating in rated.items() if rating < best} if best is not None else set()


def _records(gradebook: Gradebook) -> Iterable[dict[str, Any]]:
    for stored in gradebook.results.values():
        if stored.result is not None and stored.result.provenance:
            yield stored.result.provenance


def _conditions(records: list[dict[str, Any]]) -> str:
    """The conditions the records share, in one phrase (a value that differed names every value seen)."""

    def seen(value: Any) -> str:
        values = sorted({str(value(record)) for record in records})
        return values[0] if len(values) == 1 else " / ".join(values)

    def host(key: str) -> Any:
        return lambda record: (record.get("host") or {}).get(key)

    return (
        f"{seen(lambda record: record.get('containment'))}, sandbox {seen(lambda record: record.get('sandbox'))}, "
        f"{seen(lambda record: record.get('workers'))} workers on {seen(host('cpus'))} CPUs, SMT {seen(host('smt'))}, "
        f"governor {seen(host('governor'))}, boost {seen(host('boost'))}, "
        f"THP {seen(host('transparent_hugepages'))}, swap {seen(host('swap'))}, VM {seen(host('virtual_machine'))}, "
        f"judge {seen(lambda record: record.get('judge_version'))}"
    )
