"""`judge verify`: regression-test problems against their reference submissions.

For each problem: its tests are validated (the validator accepts every .in, the checker accepts every .ans),
then every reference submission (judge/problems/references.py: `submissions/<id>/<expected>/`, or a package's own)
is judged and its overall verdict compared with the one expected. As in Kattis problemtools, an accepted submission
whose slowest test uses more than half of its (language-adjusted) time limit is a warning: the limit leaves too
little margin.

    session.py      one run: `select_problems`, then `verify` (data checks here, submissions on the batch engine)
    data_checks.py  a problem's test data: validator and input validators on every .in, checker on every .ans
    submissions.py  reference submissions judged on the batch engine, a package's time limit derived from them
    report.py       the records: `TestDataCheck`, `SubmissionCheck`, `VerifyReport` (views: judge/reporters/verify/)

Imports the batch engine, judging and everything below them; never another feature (grading, stress, similarity).
This file holds only a docstring: importers name the module they need.
"""
