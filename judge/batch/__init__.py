"""The batch engine: many judgings at once, for `judge verify`, `judge grade` and `judge serve` alike.

    tasks.py       the unit of work, run on a worker: unpack, `judge_submission`, return a SubmissionOutcome
    packing.py     what travels with a task besides its source (languages/sources.py): the problem's judging
                   files, as bytes, hashed
    executors/     where tasks run: a local spawn pool with crash isolation, or a Dask cluster (explicit table)
                   (lanes.py: how many start now; serve's spare slots for judgings gone slow)
    engine.py      keeps the executor fed, hands back each outcome as it arrives; Ctrl-C and SIGTERM stop it
    status_bar.py  the status bar on stderr (done / total, verdicts, the pairs running), for a person watching

Every task is judged by `judge.judging.submission.judge_submission`, the engine behind `judge run`, so verdicts agree.
"""
