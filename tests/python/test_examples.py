"""Every example in examples/ runs against the real cluster and prints exactly what it should.
(The Quick Start has its own test in test_quick_start.py.)"""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

EXPECTED = {
    "log_writing.py": """
 id    name  score
  1   Alice  95.50
  2     Bob  87.00
  3 Charlie  91.00
 10     Kim  70.00
 11     Lee  71.00
 20     Max  80.50
 30     Ana  90.25
""",
    "log_batch_read.py": """
num_buckets=3 arrow_rows=6 df_rows_after=0
 id  name  score
  0 user0    0.0
  1 user1    1.0
  2 user2    2.0
  3 user3    3.0
  4 user4    4.0
  5 user5    5.0
""",
    "log_poll_arrow.py": """
   id name  score
0   0   n0    0.0
1   1   n1    1.0
2   2   n2    2.0
""",
    "log_poll_records.py": """
offset=0, change=+A, row={'id': 1, 'name': 'Alice', 'score': 95.5}
offset=1, change=+A, row={'id': 2, 'name': 'Bob', 'score': 87.0}
""",
    "log_subscribe_latest.py": """
before new writes: 0 rows
 id name  score
  2  new    2.0
""",
    "log_projection.py": """
 id  score
  1   95.5
  2   87.0
['id', 'score']
""",
    "pk_tables.py": """
Found: name=Alice, age=25
{'id': 1, 'name': 'Alice', 'age': 27}
None
{'id': 3, 'name': 'Charlie', 'age': 35}
""",
    "partitioned_pk_tables.py": """
{'user_id': 1, 'region': 'US', 'score': 1234}
None
partition not found: code 36
{'user_id': 2, 'region': 'US', 'score': 5678}
""",
    "nested_types.py": """
['int NOT NULL', 'array<string>', 'map<string,bigint>', 'row<city string, zip int NOT NULL>']
{'id': 1, 'tags': ['new', None], 'scores': [('math', 90), ('art', None)], 'address': {'city': 'Lyon', 'zip': 69001}}
{'id': 2, 'tags': [], 'scores': [('math', 75)], 'address': {'city': 'Oslo', 'zip': 150}}
{'id': 3, 'tags': None, 'scores': None, 'address': None}
refused: column 'address.zip' (INT NOT NULL): the value is null
[('+I', 1, ['new', None]), ('+I', 2, []), ('+I', 3, None)]
""",
    "error_handling.py": """
Fluss error: table fluss.example_errors: Table fluss.example_errors already exists.
table not found: code 7
connection refused: code 1
schema mismatch: column 'id': expected int, got str
""",
}


def _run(name, bootstrap_servers):
    env = dict(os.environ, FLUSS_BOOTSTRAP_SERVERS=bootstrap_servers)
    out = subprocess.run([sys.executable, str(ROOT / "examples" / name)], capture_output=True, text=True,
                         timeout=120, cwd=ROOT / "examples", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    return out.stdout


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_prints_expected_output(name, bootstrap_servers):
    assert _run(name, bootstrap_servers).strip("\n") == EXPECTED[name].strip("\n")


def test_offsets_example(bootstrap_servers):
    lines = _run("offsets.py", bootstrap_servers).splitlines()
    assert len(lines) == 3
    # 5 rows over 2 buckets (the sticky assigner puts one batch in one bucket).
    assert lines[0] in ("latest: {0: 0, 1: 5} (total 5)", "latest: {0: 5, 1: 0} (total 5)"), lines[0]
    assert lines[1] == "at 2024-01-01: {0: 0}"  # every record is newer: the first offset
    assert lines[2] == "partition US latest: {0: 0}"


def test_partitioned_tables_example(bootstrap_servers):
    lines = _run("partitioned_tables.py", bootstrap_servers).splitlines()
    assert lines[0] == "['EU', 'US']"
    # to_pandas over two partitions: each partition's rows in order, the partitions in either order.
    assert lines[1].split() == ["id", "region", "value"]
    rows = [tuple(line.split()) for line in lines[2:]]
    assert [r[0] for r in rows] == ["0", "1"], lines  # the pandas index
    assert sorted(r[1:] for r in rows) == [("1", "US", "100"), ("2", "EU", "200")], lines


def test_every_example_is_tested():
    examples = {p.name for p in (ROOT / "examples").glob("*.py") if not p.name.startswith("_")}
    assert examples == set(EXPECTED) | {"offsets.py", "quick_start.py", "partitioned_tables.py"}
