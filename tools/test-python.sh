#!/usr/bin/env bash
# Installs the Python package from this clone into a fresh virtual environment of Debian's
# interpreter (whatever python3 comes first on PATH), reusing build/ (tools/build.sh), and runs
# its pytest suite (tests/python).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build/python-venv
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
CODESIM_BUILD_DIR=build "$venv/bin/pip" install --no-build-isolation --no-deps --no-index -q .
cd tests/python  # import the installed package, not the source folder
"../../$venv/bin/python" -m pytest -q -p no:cacheprovider .
