#!/usr/bin/env bash
# Creates .venv-pyfluss in the project root with the other Python client, pyfluss 1.0.0 (it also
# imports as `fluss`, hence its own virtual environment), and exact pins for everything it pulls in.
# pyarrow/pandas/numpy are pinned to the versions of the system Python where our package runs, so
# both clients hand data to the same pyarrow build.
#
#   bash benchmarks/setup_pyfluss.sh            # create or refresh
#   PYTHON=/path/to/python3.11 bash benchmarks/setup_pyfluss.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv-pyfluss"
PYTHON="${PYTHON:-python3}"

# pyfluss 1.0.0 requires pandas>=2.3.1 and pyarrow>=10.0.0; the rest are their dependencies.
PINS=(
  "pyfluss==1.0.0"
  "pyarrow==22.0.0"
  "pandas==2.3.3"
  "numpy==2.3.5"
  "python-dateutil==2.9.0.post0"
  "pytz==2026.6"
  "tzdata==2026.6"
  "six==1.17.0"
)

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
# Nothing else may be resolved behind our back: fail if any installed version differs from a pin.
"$VENV/bin/python" - "${PINS[@]}" <<'PY'
import sys
from importlib.metadata import version
bad = []
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    got = version(name)
    if got != want:
        bad.append(f"{name}: want {want}, got {got}")
if bad:
    sys.exit("version mismatch: " + "; ".join(bad))
import fluss, pyarrow
print(f"pyfluss {version('pyfluss')} (fluss.__version__={fluss.__version__}), pyarrow {pyarrow.__version__}, "
      f"Python {sys.version.split()[0]} in {sys.prefix}")
PY
