"""`judge doctor`: what this machine offers the judge, so a teacher knows how far to trust its verdicts.

- machine.py: the toolchains (with their versions), the memory limiting (the containment), the sandbox.
- timing.py: the host's timing conditions (SMT, governor, boost, transparent huge pages, swap, address-space
  randomisation, a VM, the load), each with its effect and fix, and whether the host is fit for official grading.

This file holds only a docstring: importers name the module they need.
"""
