"""Verdicts: one Enum, each with its short code, its BOJ name, its colour and its folder name.

The folder name is what `submissions/<problem>/<folder>/` calls the verdict a reference submission must get.
"""

from __future__ import annotations

from enum import Enum


class Verdict(Enum):
    """A verdict of one test case or of a whole submission."""

    AC = ("AC", "맞았습니다!!", "green", "accepted")
    WA = ("WA", "틀렸습니다", "red", "wrong_answer")
    PE = ("PE", "출력 형식이 잘못되었습니다", "magenta", "presentation_error")
    TLE = ("TLE", "시간 초과", "yellow", "time_limit_exceeded")
    MLE = ("MLE", "메모리 초과", "yellow", "memory_limit_exceeded")
    OLE = ("OLE", "출력 초과", "yellow", "output_limit_exceeded")
    RE = ("RE", "런타임 에러", "red", "run_time_error")
    CE = ("CE", "컴파일 에러", "blue", "compile_error")
    JE = ("JE", "채점 오류 (judge error)", "bold red", "judge_error")

    def __init__(self, short: str, boj_name: str, colour: str, folder: str) -> None:
        self.short = short
        self.boj_name = boj_name
        self.colour = colour
        self.folder = folder

    @classmethod
    def from_short(cls, short: str) -> Verdict:
        return cls[short]

    @classmethod
    def from_folder(cls, folder: str) -> Verdict:
        """The verdict a `submissions/<id>/<folder>/` directory expects; KeyError if the name is not one."""
        for verdict in cls:
            if verdict.folder == folder:
                return verdict
        raise KeyError(folder)
