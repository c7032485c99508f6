"""Verdicts: one Enum, each with its short code, its BOJ name, its colours and its folder name.

The colours are the one colour table of every view: `colour` is rich's style on a terminal, `html_colour` the
fill in report.html and its plots (BOJ's hues, told apart). The folder name is what
`submissions/<problem>/<folder>/` calls the verdict a reference submission must get.
"""

from __future__ import annotations

from enum import Enum


class Verdict(Enum):
    """A verdict of one test case or of a whole submission."""

    AC = ("AC", "맞았습니다!!", "green", "#2e9d4a", "accepted")
    WA = ("WA", "틀렸습니다", "red", "#d64545", "wrong_answer")
    PE = ("PE", "출력 형식이 잘못되었습니다", "magenta", "#b548c6", "presentation_error")
    TLE = ("TLE", "시간 초과", "yellow", "#e6a700", "time_limit_exceeded")
    MLE = ("MLE", "메모리 초과", "yellow", "#e07b00", "memory_limit_exceeded")
    OLE = ("OLE", "출력 초과", "yellow", "#a66a00", "output_limit_exceeded")
    RE = ("RE", "런타임 에러", "red", "#8f2d56", "run_time_error")
    CE = ("CE", "컴파일 에러", "blue", "#3a6fd8", "compile_error")
    JE = ("JE", "채점 오류 (judge error)", "bold red", "#222222", "judge_error")

    def __init__(self, short: str, boj_name: str, colour: str, html_colour: str, folder: str) -> None:
        self.short = short
        self.boj_name = boj_name
        self.colour = colour
        self.html_colour = html_colour
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
