"""The launcher: one process per submission that starts each of its tests, named by side.

- client.py: the judge's side (`Launcher`): starts the launcher, asks it to start each run, waits for it.
- server.py: the launcher process itself, unconfined or the PID 1 of a warm box.
- box_init.py: what the launcher does as a warm box's PID 1 (take the box over, reset it between tests).
- own_limits.py: the rlimits and seccomp filter a process puts on itself.
- copying.py: a file copied in the kernel (the program into a box; the judge's private copy of a test's input).

server.py runs with `python -I -S` from the judge's code folder (in a box: a read-only mount it then unmounts), and
imports only the standard library and the modules beside it but client.py. Importing it also runs judge/__init__.py,
judge/runner/__init__.py and this file, so each of them holds a docstring and no import
(tests/runner/test_launcher_imports.py).
"""
