"""`judge grade`: judge a whole class of submissions and keep a gradebook.

The flow, one module per step:

    discovery.py   problems folder + class folder -> (student, problem, source) pairs and unmatched files
    packing.py     what travels with a task: the problem's judging files and the source, as bytes, hashed
    store.py       results.sqlite: one row per pair; tells which pairs are missing or stale
    tasks.py       the unit of work, run on a worker: unpack, `judge_submission`, return a PairOutcome
    executors/     where tasks run: a local process pool, or a Dask cluster (same interface, explicit table)
    session.py     keeps the executor fed, writes each result as it arrives, reports progress
    gradebook.py   the stored rows as a student x problem table; its views (grades.csv, grades.json,
                   report.html) are in judge/reporters/gradebook/, the command in judge/cli/grade.py

Every pair is judged by `judge.judging.judge_submission`, the engine behind `judge run`, so verdicts agree.
"""
