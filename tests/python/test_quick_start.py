"""The seed's Quick Start, kept unchanged in examples/, prints the two rows it wrote."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_quick_start_prints_alice_and_bob(bootstrap_servers):
    # The example hard-codes 127.0.0.1:9123 as the seed does; run it only against that cluster.
    assert bootstrap_servers == "127.0.0.1:9123", "the Quick Start example targets 127.0.0.1:9123"
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "quick_start.py")], capture_output=True,
                         text=True, timeout=120, env=dict(os.environ, PYTHONWARNINGS="error::ResourceWarning"))
    assert out.returncode == 0, out.stderr
    lines = [line.split() for line in out.stdout.strip().splitlines()]
    assert lines == [["id", "name", "score"], ["0", "1", "Alice", "95.5"], ["1", "2", "Bob", "87.0"]], out.stdout
    assert out.stderr == ""
