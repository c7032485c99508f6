"""`judge grade`: judge a whole class of submissions and keep a gradebook.

The flow, one module per step:

    discovery.py   problems folder + class folder -> (student, problem, source) pairs and unmatched files
    store.py       results.sqlite: one row per pair; tells which pairs are missing or stale
    session.py     runs the stale pairs on the batch engine (judge/batch/), storing each result as it arrives
    out_folder.py  the --out folder: one run at a time (a lock), a full disk told as one line
    gradebook.py   the stored rows as a student x problem table; its views (grades.csv, grades.json,
                   report.html) are in judge/reporters/gradebook/, the command in judge/cli/grade.py

Every pair is judged by `judge.judging.submission.judge_submission`, the engine behind `judge run`, so verdicts agree.
"""
