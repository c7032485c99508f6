"""The runner: run one command under limits and report the facts. It knows no problem and no language, and of
verdicts only those a run's facts decide alone (classify.py).

- execute.py: `run`, start → watch → kill → facts (`RunStats`) for one command.
- run_files.py: a run's standard streams: the input's private copy, the output files (new, or kept from the run
  before: `KeptOutputs`), the stderr tail, the room left on the judge's disk; a file read whole (`read_whole`).
- limits.py: `Limits`, a run's limits as a person states them (no imports: results and views name them).
- classify.py: from a run's facts to TLE, MLE, OLE or RE (or none: the checker decides).
- sandbox.py: how a command is wrapped before it starts (bubblewrap, or none) and what a box shows.
- syscall_filter.py: the seccomp filter every run gets.
- start.py: the `Starter` protocol and a fork of the judge per run (`Spawner`).
- starter_choice.py: which starter a submission's tests get (a launcher where the machine allows it).
- containment/: how a run's process tree is contained, measured and killed (control group, /proc, psutil).
- launcher/: the launcher process kept for a submission's tests, and the judge's side of it.

Like every package __init__.py on the launcher's import path, this file holds only a docstring (see launcher/).
"""
