"""The rows listed of a long candidate table (CandidateTable.excerpt, table.listed_table): the
whole table's own rows, chosen by a rule read here off the whole table."""

from __future__ import annotations

import numpy as np
import pandas as pd

import dtlearn
from dtlearn import grading, quiz
from dtlearn.table import listed_table


def noisy(n: int = 400) -> dtlearn.Dataset:
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"a": rng.normal(size=n).round(2), "b": rng.integers(0, 90, n).astype(float),
                          "c": rng.choice(list("xyz"), n)})
    frame["y"] = np.where(frame["a"] + rng.normal(scale=0.5, size=n) > 0, "p", "q")
    return dtlearn.Dataset(frame, "y")


def test_each_long_attribute_keeps_its_best_rows_by_score_ties_in_table_order():
    root = dtlearn.fit(noisy(), "c45").steps[0]
    whole = root.table  # built whole: the reference
    excerpt = root.candidates.excerpt(per_attribute=10)
    expected = set()
    for attribute, rows in whole.groupby("attribute", sort=False):
        if len(rows) <= 10:
            expected |= set(rows.index)
            continue
        ranked = sorted(rows.index, key=lambda i: (-np.nan_to_num(rows.loc[i, "score"], nan=-np.inf), i))
        expected |= set(ranked[:10])
    expected |= set(root.candidates.best_rows()) | set(np.flatnonzero(whole["chosen"] | whole["tied"]))
    assert excerpt.rows.tolist() == sorted(expected)
    totals = whole["attribute"].value_counts()
    assert {a: t for a, _, t in excerpt.short} == {a: totals[a] for a in ("a", "b")}  # c: one multiway row
    assert excerpt.note("gain ratio").startswith(f"10 of {totals['a']} candidates of a listed (the best by gain ratio)")
    pd.testing.assert_frame_equal(root.candidates.frame(excerpt.rows), whole.loc[excerpt.rows])  # the same numbers


def test_grading_and_the_quiz_read_a_listed_table_as_the_whole_one(monkeypatch):
    tree = dtlearn.fit(noisy(), "c45")
    root = tree.steps[0]
    whole_work = grading.Work.of(root, 5)
    whole_grade = grading.grade(whole_work, "attribute", "b")
    whole_guess = quiz.check(root, "b")
    monkeypatch.setattr("dtlearn.table.LISTED_ROWS", 20)  # now the root's table is listed, not whole
    listed = listed_table(root)
    assert len(listed) < len(root.table) and listed.loc[root.chosen_row, "chosen"]
    work = grading.Work.of(root, 5)
    assert 5 in work.table.index and work.candidate.equals(whole_work.candidate)
    assert grading.grade(work, "attribute", "b") == whole_grade
    assert quiz.check(root, "b") == whole_guess
    assert all(len(tests) <= len(root.table) for tests in quiz.options(root).values())


def test_a_large_node_forgets_its_measures_and_computes_the_same_numbers_again(monkeypatch):
    # measures.KEPT_MEASURES_UP_TO: past it a node's candidates keep only their class weights per
    # branch (a 1,000,000-row root would keep ~150 bytes a cut); every number is computed again.
    kept = dtlearn.fit(noisy(), "c45").steps[0]
    whole, evaluation = kept.table, kept.evaluation
    assert "gain" in vars(evaluation.blocks[0].stats)  # small: the measures are kept
    monkeypatch.setattr(dtlearn.measures, "KEPT_MEASURES_UP_TO", 10)
    forgetting = dtlearn.fit(noisy(), "c45").steps[0]
    assert forgetting.evaluation.choice == evaluation.choice
    pd.testing.assert_frame_equal(forgetting.table, whole)
    stats = forgetting.evaluation.blocks[0].stats
    assert not {"gain", "gain_ratio", "mass_branch", "branch_entropies"} & set(vars(stats))
