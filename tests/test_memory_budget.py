"""Memory is checked before it is taken (dtlearn.budget.check_bytes): CART's and Zaki's subsets
of V values cost about V^2 bytes, a class-weight array rows x classes, and each is refused
while it is still a count when it would pass the budget's bytes; an ARFF domain past
MAX_DECLARED_VALUES is refused while its declaration is read."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn import arff, engine, kernels, subset_scan
from dtlearn.budget import Budget, TooCostly, within
from dtlearn.candidates import subset_bytes

ROOT = Path(__file__).resolve().parents[1]


def many_values(values: int, rows: int, classes: int = 2, seed: int = 0) -> dtlearn.Dataset:
    """A column holding each of `values` values at least once, in `rows` rows, and random classes."""
    rng = np.random.default_rng(seed)
    codes = np.concatenate([np.arange(values), rng.integers(0, values, rows - values)])
    frame = pd.DataFrame({"code": [f"v{i}" for i in rng.permutation(codes)],
                          "y": [f"k{i}" for i in rng.integers(0, classes, rows)]})
    return dtlearn.Dataset(frame, "y")


@pytest.mark.parametrize("values, classes, algorithm, settings", [
    (1500, 2, "cart", {}),  # Breiman's ordering: V - 1 prefixes of V values
    (600, 3, "cart", {}),  # three classes: each class's ordering, 3 (V - 1) sets
    (40, 2, "zaki", {"max_subset_size": 2}),  # Zaki & Meira's pairs and singles
    (30, 150, "cart", {}),  # many classes, few values: the weights per class weigh most
])
def test_the_estimate_bounds_what_scoring_a_node_allocates(values, classes, algorithm, settings, monkeypatch):
    # tracemalloc sees numpy's arrays: the peak of scoring the root's subsets, against the
    # estimate the budget is asked about before (`candidates.subset_bytes`)
    data = many_values(values, max(2 * values, 20 * classes), classes)
    peaks, score = [], subset_scan._score

    def traced(encoded, settings_, attribute, segment, node_rows, channels, *rest):
        tracemalloc.start()
        try:
            found = score(encoded, settings_, attribute, segment, node_rows, channels, *rest)
            width = subset_scan._most_candidates(encoded, settings_, len(encoded.categories(attribute)))
            peaks.append((tracemalloc.get_traced_memory()[1], subset_bytes(width, values, len(channels))))
        finally:
            tracemalloc.stop()
        return found

    monkeypatch.setattr(subset_scan, "_score", traced)
    dtlearn.fit(data, algorithm, max_depth=1, **settings)
    peak, estimate = peaks[0]
    assert peak <= estimate <= 3 * peak  # an upper bound, and not a wild one


def test_a_node_whose_subsets_pass_the_budget_is_refused_and_one_within_grows():
    # the root's 299 prefixes of 300 values, two classes (two channels): exactly its estimate
    data = many_values(300, 600)
    needed = subset_bytes(299, 300, 2)
    with within(Budget(bytes=needed)):
        assert dtlearn.fit(data, "cart", max_depth=2).total_steps > 1
    with within(Budget(bytes=needed - 1)), pytest.raises(TooCostly) as refused:
        dtlearn.fit(data, "cart", max_depth=2)
    assert str(refused.value).startswith("The subsets of 'code' (300 values) would take 1.41 MB of memory at once, "
                                         "past the 1.41 MB allowed here. Mark 'code' as 'ignore' (Attribute kinds)")


def test_zakis_sets_name_the_largest_value_set_setting():
    data = many_values(3000, 6000)
    with within(Budget(bytes=64 * 2**20)), pytest.raises(TooCostly, match=r"Choose a smaller Largest value set \|V\|, "
                                                                        r"or mark 'code' as 'ignore'"):
        dtlearn.fit(data, "zaki")


def test_class_weights_of_many_rows_and_classes_are_refused_before_they_are_made():
    # 50 classes x 4,000 rows: 200,000 cells, a bool and a float each when made
    data = many_values(20, 4000, classes=50)
    with within(Budget(bytes=17 * 50 * 4000 - 1)), pytest.raises(TooCostly, match="The class weights of 4,000 rows "
                                                                                   "x 50 classes .* fewer classes"):
        dtlearn.fit(data, "cart")


# In a process of its own, its address space capped: the code before the check asked for 9 GB
# and more for this column (the server was killed at 18 GB), and must fail here, not take the machine.
REFUSAL = textwrap.dedent("""
    import resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, 4 * 2**30))
    sys.path.insert(0, sys.argv[1])
    import numpy as np, pandas as pd
    import dtlearn
    rng = np.random.default_rng(0)
    codes = np.concatenate([np.arange(50_000), rng.integers(0, 50_000, 10_000)])
    frame = pd.DataFrame({"code": [f"k{i}" for i in rng.permutation(codes)], "y": rng.choice(["A", "B"], 60_000)})
    data = dtlearn.Dataset(frame, "y")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.process_time()
    try:
        with dtlearn.budget.within(dtlearn.Budget(seconds=60, nodes=200_000, cells=4_000_000, bytes=512 * 2**20)):
            dtlearn.fit(data, sys.argv[2])
        print("grown")
    except dtlearn.DataError as error:
        print(type(error).__name__, error)
    grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(f"{grew // 1024} MB {time.process_time() - started:.1f} s")
""")


@pytest.mark.parametrize("algorithm", ["cart", "zaki"])
def test_a_column_of_50000_values_is_refused_without_taking_its_memory(algorithm):
    done = subprocess.run([sys.executable, "-c", REFUSAL, str(ROOT), algorithm], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    said, used = done.stdout.strip().splitlines()
    assert said.startswith("TooCostly The subsets of 'code' (50,000 values) would take "), said
    assert "past the 512 MB allowed here" in said and "'code' as 'ignore'" in said
    assert int(used.split()[0]) < 500, used  # the process grew by less than 500 MB


def test_an_arff_domain_past_the_limit_is_refused_while_its_declaration_is_read():
    values = ",".join(f"v{i}" for i in range(300_000))
    text = f"@relation r\n@attribute a {{{values}}}\n@attribute c {{no,yes}}\n@data\nv1,no\nv2,yes\n".encode()
    tracemalloc.start()
    try:
        with pytest.raises(dtlearn.DataError, match=r"^Line 2: 'a' declares more than 100,000 values, more than "
                                                    r"dtlearn reads as categories .* Declare it as string"):
            dtlearn.read_arff(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20  # the first 100,001 values read, not 300,000 made into a domain


def test_the_arff_limit_counts_values_not_commas(monkeypatch):
    monkeypatch.setattr(arff, "MAX_DECLARED_VALUES", 3)
    rest = "@attribute c {no,yes}\n@data\n"
    kept = dtlearn.read_arff(f"@relation r\n@attribute a {{'x,1','y,2',z}}\n{rest}'x,1',no\nz,yes\n".encode(),
                             identifiers="keep")
    assert list(kept.frame["a"].cat.categories) == ["x,1", "y,2", "z"]  # three values, four commas
    with pytest.raises(dtlearn.DataError, match="'a' declares more than 3 values"):
        dtlearn.read_arff(f"@relation r\n@attribute a {{w,x,y,z}}\n{rest}w,no\n".encode())


def with_gaps(rows: int, values: int, missing: float, seed: int = 0) -> dtlearn.Dataset:
    """A column of `values` categories with `missing` of its cells empty, a number of three values,
    two classes."""
    rng = np.random.default_rng(seed)
    code = np.array([f"v{i}" for i in rng.integers(0, values, rows)], dtype=object)
    code[rng.random(rows) < missing] = None
    return dtlearn.Dataset(pd.DataFrame({"code": code, "x": rng.integers(0, 3, rows),
                                         "y": rng.choice(["a", "b"], rows)}), "y")


def test_rows_without_a_value_sent_down_every_branch_are_counted_before_they_are_copied(monkeypatch):
    # C4.5 (Quinlan 1993) sends a row without the tested value down every branch with its share:
    # the next level's buffers are counted before the kernel makes them, to the byte
    counted, made = [], []
    count, partition = engine._shared_bytes, kernels.partition_shared
    monkeypatch.setattr(engine, "_shared_bytes", lambda *a: counted.append(count(*a)) or counted[-1])
    monkeypatch.setattr(kernels, "partition_shared",
                        lambda *a: made.append(sum(b.nbytes for b in partition(*a))) or partition(*a))
    dtlearn.fit(with_gaps(600, 12, 0.2), "c45")
    assert counted and counted == made


def test_id3_on_many_values_with_gaps_is_refused_before_copying_rows_to_every_branch():
    # 2,000 rows, a fifth without a value of a 1,000-valued column: ~400 x 1,000 copies at the root
    with within(Budget(bytes=2**20)), pytest.raises(TooCostly, match="^Sending the rows without a value down every "
                                                                      "branch of this level would take .* Max depth"):
        dtlearn.fit(with_gaps(2000, 1000, 0.2), "id3")
