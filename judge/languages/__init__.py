"""Languages: what the judge knows of each language it runs, and how it finds the tools on this machine. Knows no
problem and no verdict; the runner below it knows no language.

- languages.yaml: the table (package data): display name, extensions, tools, compile and run commands, allowances.
- catalog.py: its records (`Language`, `ToolSpec`, `Allowance`) and `LANGUAGES`, read and validated on first use.
- schema.py: languages.yaml as pydantic validates it (imported only when the table is not in the judge's cache).
- detection.py: which language a source is in (`--lang`, a `build`/`run` script, else its extension), the class a
  Java source runs, and whether a source declares `main`.
- sources.py: a submission's files (one file, or a folder of several) and the main source among them: the one
  record of them, read once and carried to a batch's workers as it is.
- toolchains.py: a language's tools resolved to real binaries (`Toolchain`), a Python's empty venv, static linking.
- shims.py: the real binary a pyenv or asdf shim starts, asked once and kept in the judge's cache.

This file holds only a docstring: importers name the module they need.
"""
