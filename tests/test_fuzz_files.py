"""Every file gets a clear message or works (hardening issue, part 2).

For each file of `fuzz_files`: `read_csv` returns a Dataset or raises DataError; each preset
fits or raises DataError; the tree's DOT passes the real `dot`; every pruning method, the
partition of two numeric attributes, the derivations of the steps, the replay and a pickle
round trip work. Any other exception fails the test with the file that caused it.
"""

from __future__ import annotations

import pickle
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings

import dtlearn
from dtlearn import derivation, node_rows
from fuzz_files import SHAPES, csv_files

DOT = shutil.which("dot")
STEPS_CHECKED = 12  # derivations for the first steps and the last (a 1,500-value ID3 root has 1,500 children)


def passes_dot(sources: list[str]) -> None:
    """All graphs in one run of `dot` (it reads a stream of graphs); a syntax error fails it."""
    done = subprocess.run([DOT, "-Tsvg", "-o", "/dev/null"], input="\n".join(sources).encode(), capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[:2000]


def clear(error: Exception) -> None:
    """A message a student can read: some words, not an empty string or a repr."""
    assert isinstance(error, ValueError) and len(str(error).strip()) > 10, repr(error)


def checked_steps(tree: dtlearn.Tree) -> list:
    steps = list(tree.steps[:STEPS_CHECKED])
    return steps + ([tree.steps[-1]] if len(tree.steps) > STEPS_CHECKED else [])


def check_derivations(tree: dtlearn.Tree) -> None:
    """What the Step page works out for a step: the chosen (or best) row's formulas, the rows at its node."""
    for step in checked_steps(tree):
        node_rows.rows_at(tree.at_step(step.number), None, step.node_id)  # the rows the Step page lists
        if step.candidates is None:
            continue
        if not len(step.candidates):
            continue
        table = step.candidates.frame()
        picked = step.chosen_row
        if picked is None:  # a leaf: the page offers the rows it would have scored
            score = table["score"].to_numpy(dtype=float)
            picked = int(np.nanargmax(score)) if not np.isnan(score).all() else 0
        sections = derivation.derivation(table.iloc[picked], tree.classes)
        assert all(isinstance(line, str) for section in sections for line in section.lines)


def check_pruning(tree: dtlearn.Tree, data: dtlearn.Dataset) -> list[dtlearn.Tree]:
    """Every method, as the Pruning page runs it; returns the pruned trees."""
    pruned = [(tree, dtlearn.prune(tree, "reduced_error", validation=data)),
              (tree, dtlearn.prune(tree, "validation_prepruning", validation=data)),
              (tree, dtlearn.prune(tree, "cost_complexity", alpha=0.01))]
    try:
        pruned.append((tree, dtlearn.prune(tree, "cost_complexity", cv=min(5, len(data.frame)), one_se=True)))
    except dtlearn.TooCostly:  # past the budget (a slow machine): the caller's clear refusal
        raise
    except ValueError as error:  # fewer than two rows to cross-validate: said plainly
        assert len(data.frame) < 2
        clear(error)
    if not tree.is_regression:
        pruned.append((tree, dtlearn.prune(tree, "pessimistic", confidence=0.25, subtree_raising=True)))
    try:
        train, validation, _ = dtlearn.train_validation_test_split(data, validation=0.3, test=0, seed=0)
    except ValueError as error:  # too few rows to set some aside: said plainly
        clear(error)
    else:
        try:
            base = dtlearn.fit(train, tree.settings.algorithm)
        except dtlearn.DataError as error:
            clear(error)
        else:
            for method in ("reduced_error", "validation_prepruning"):
                pruned.append((base, dtlearn.prune(base, method, validation=validation)))
            dtlearn.overfitting_curve(base, train, validation)
    for grown, result in pruned:
        assert result.n_leaves <= grown.n_leaves
        for k in {grown.total_steps, (grown.total_steps + result.total_steps) // 2, result.total_steps}:
            result.at_step(k)
    return [result for _, result in pruned]


def check_partition(data: dtlearn.Dataset, algorithm: str) -> list[str]:
    """The Partitions page: a tree on the first two numeric attributes (ID3 grows C4.5 there)."""
    numeric = [a for a, kind in data.kinds.items() if kind == "numeric"][:2]
    if len(numeric) < 2:
        return []
    try:
        tree = dtlearn.fit(data.select(numeric), "c45" if algorithm == "id3" else algorithm)
    except dtlearn.DataError as error:
        clear(error)
        return []
    x, y = numeric
    for k in (0, 1, tree.total_steps):
        partial = tree.at_step(min(k, tree.total_steps))
        rectangles = dtlearn.partition(partial, x, y)
        assert len(rectangles) == partial.n_leaves
        dtlearn.split_lines(partial, x, y)
    return [tree.to_dot()]


def check_tree(tree: dtlearn.Tree, data: dtlearn.Dataset) -> list[str]:
    """Everything done with a fitted tree; returns the DOT sources to pass through `dot`."""
    sources = [tree.to_dot(), tree.to_dot(digits=None)]
    total = tree.total_steps
    for k in sorted({0, 1, total // 2, total} & set(range(total + 1))):
        partial = tree.at_step(k)
        step = tree.steps[k - 1] if k else None
        sources.append(partial.to_dot(highlight=step.node_id if step else 0, numbers=True))
    check_derivations(tree)
    tree.to_text()
    tree.rules()
    again = pickle.loads(pickle.dumps(tree))
    assert again.to_dict(nested=False) == tree.to_dict(nested=False)  # any depth (nested: json, == recurse)
    predicted, predicted_again = tree.predict(data.frame), again.predict(data.frame)
    assert list(map(str, predicted)) == list(map(str, predicted_again))
    sources += [pruned.to_dot() for pruned in check_pruning(tree, data)]
    return sources


# As in the app (pages/computing.BUDGET): work past this much processor time per file is refused with
# TooCostly, a DataError that says what would make it cheaper.
BUDGET = dtlearn.Budget(seconds=5, nodes=200_000, cells=4_000_000)


def check_file(content: bytes) -> None:
    try:
        with dtlearn.budget.within(BUDGET):
            check_within_budget(content)
    except dtlearn.budget.TooCostly as error:  # anywhere: the app shows this message and stops
        clear(error)


def check_within_budget(content: bytes) -> None:
    try:
        data = dtlearn.read_csv(content)
    except dtlearn.DataError as error:
        clear(error)
        return
    assert isinstance(data, dtlearn.Dataset)
    sources = []
    for algorithm in dtlearn.PRESETS:
        try:
            tree = dtlearn.fit(data, algorithm)
        except dtlearn.DataError as error:
            clear(error)
            continue
        assert isinstance(tree, dtlearn.Tree)
        sources += check_tree(tree, data)
        sources += check_partition(data, algorithm)
    passes_dot(sources)


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_named_shape_reads_or_is_refused_clearly(name):
    check_file(SHAPES[name])


# No shrinking: one shrink of a failure refits hundreds of files (minutes); the failing file is printed whole.
@settings(derandomize=True, max_examples=60, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(csv_files())
@example(SHAPES["all attribute cells empty"])
def test_every_drawn_file_reads_or_is_refused_clearly(content):
    check_file(content)


def test_the_generator_draws_files_that_read_and_files_that_do_not():
    """The fuzzing exercises trees, not only the reader's refusals: most drawn files must read."""
    read = refused = 0
    for content in _sample(40):
        try:
            dtlearn.read_csv(content)
            read += 1
        except dtlearn.DataError:
            refused += 1
    assert read >= 10 and refused >= 3, (read, refused)


def _sample(n: int) -> list[bytes]:
    """n files drawn deterministically (hypothesis with a fixed seed)."""
    drawn = []

    @settings(derandomize=True, max_examples=n, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(csv_files())
    def collect(content):
        drawn.append(content)

    collect()
    return drawn


def test_a_candidate_no_row_has_a_value_of_is_worked_out_as_such():
    # all attribute cells empty: each attribute's row has no branch (found by the fuzzing)
    tree = dtlearn.fit(dtlearn.read_csv(SHAPES["all attribute cells empty"]), "id3")
    row = tree.steps[0].candidates.frame().iloc[0]
    (section,) = derivation.derivation(row, tree.classes)
    assert section.lines == (r"\text{No row here has a value of }\text{a}\text{: no branches.}",)


def test_a_numeric_target_for_id3_and_one_row_to_cross_validate_are_data_errors():
    data = dtlearn.read_csv(b"x,y\n" + b"".join(b"%d,%d.5\n" % (i, i) for i in range(12)))
    with pytest.raises(dtlearn.DataError, match="Regression trees are CART's"):
        dtlearn.fit(data, "id3")
    one = dtlearn.fit(dtlearn.read_csv(SHAPES["one row"]), "cart")
    with pytest.raises(ValueError, match="Cross-validation needs at least 2 rows; this table has 1"):
        dtlearn.prune(one, "cost_complexity", cv=5)
