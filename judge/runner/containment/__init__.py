"""How a run's process tree is contained, measured and killed: one interface, one implementation per mechanism.

- protocol.py: the `Containment` interface and its records (`Contained`, `Run`, `Sample`, `Outcome`, `Guards`).
- choice.py: the best containment this machine has, or the one `--containment` names.
- cgroup.py: the `cgroup` containment (v2 or v1), on the control groups of cgroups.py.
- cgroups.py: making a run's control group on this machine's hierarchies (v2 or v1), and what the machine allows.
- run_group.py: a run's control group once made: its counters, limits, joining, killing, removal.
- stale_groups.py: naming run groups so that their judge can be found; sweeping those whose judge died.
- v2_base.py: on cgroup v2, the group the judge makes its run groups in (and gives back at its exit), or why none.
- polled.py: the `proc` and `portable` containments, which poll the tree.
- proctree.py: finding a run's processes through /proc (the `proc` containment).
- waiting.py: how long a run's tree waited for a CPU (the wall backstop does not count it).
"""
