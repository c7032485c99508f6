#!/usr/bin/env bash
# Set up judge on Debian/Ubuntu: system packages (sandbox, toolchains), then a virtualenv in .venv.
# Usage: bash scripts/setup.sh [--test]   (--test also installs pytest, Dask and Chromium)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(python3-venv bubblewrap libseccomp2 g++ openjdk-17-jdk-headless pypy3)
[[ "${1:-}" == "--test" ]] && packages+=(time chromium)

if command -v apt-get >/dev/null; then
    as_root=()
    [[ $(id -u) -ne 0 ]] && as_root=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
else
    echo "setup: no apt-get; install these yourself if you want them: ${packages[*]}" >&2
fi

python3 -m venv .venv
if [[ "${1:-}" == "--test" ]]; then
    .venv/bin/pip install -q -e '.[test]'
else
    .venv/bin/pip install -q -e .
fi
