"""The recorded decisions of induction and pruning, and where their tables come from.

A `Step` is one decision: split a node (and why) or make it a leaf (and which rule), or after
growth a pruning decision. Steps are plain data (they pickle): the candidate table behind a
growth step is not kept but rebuilt on request by its `Growth`, which routes the training rows
down to the step's node and scores every candidate there with the `measures` definitions.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .encoding import Encoded
from .routing import training_rows
from .splits import evaluate
from .surrogates import surrogates_of
from .table import CandidateTable, empty_frame
from .table_cache import NodeCache

SPLIT, LEAF, COLLAPSE = "split", "leaf", "collapse"
PRUNE, RAISE, KEEP = "prune", "raise", "keep"  # pruning: subtree -> leaf, subtree raising, no change
GROWTH_ACTIONS = (SPLIT, LEAF)
DISPLAY: dict = {}  # "step" / "tree" -> HTML for Jupyter, filled in by `display` (a layer above)
OWN_VALUE = "(missing)"  # the category a missing value becomes with missing_values="own_value"


_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")  # our reasons' sentences; never inside 0.971 or et al. 1984


@dataclass(eq=False, slots=True)
class Step:
    """One decision of induction: split a node (and why) or make it a leaf (and which rule).

    Read-only by convention (use `dataclasses.replace` for a changed copy): not frozen, because
    a fit makes one per node, and a frozen dataclass takes four times as long to make."""

    number: int  # 1-based position in the trace
    node_id: int
    parent_id: int | None
    branch: str | None  # the branch label leading here from the parent ("= Sunny", "<= 2.45")
    depth: int
    class_weights: tuple[float, ...]  # () for regression
    prediction: str  # a class label, or the predicted value written out (regression)
    impurity: float  # entropy or Gini (with class priors: of the prior-weighted proportions); MSE
    action: str  # SPLIT, LEAF; after growth COLLAPSE, PRUNE, RAISE or KEEP
    reason: str  # in words: why this split won, or which stopping condition made a leaf
    stop: str | None = None  # short code of the stopping condition (leaf and collapse steps)
    test: object = None  # conditions.Test of a split
    child_ids: tuple[int, ...] = ()
    child_weights: tuple[tuple[float, ...], ...] = ()  # class weights, or (w, w y, w y^2) for regression
    branch_fractions: tuple[float, ...] = ()  # r~_v: shares of known weight, used for unknown values
    weight: float = 0.0  # total case weight of the node's rows
    value: float | None = None  # regression: the node's prediction (mean, or median for leaves)
    details: dict = field(default_factory=dict)  # pruning: the numbers that decided the step
    raised_child: int | None = None  # RAISE: the child whose subtree takes this node's place
    new_stats: tuple = ()  # RAISE: (node id, class weights, branch fractions) of the re-sorted subtree
    found_surrogates: tuple | None = None  # CART: surrogate splits found while growing (None: not needed)
    majority_branch: int = -1  # CART: where a row no surrogate can place went while growing (-1: stays)
    score: float | None = None  # a split: the winner's score as induction computed it (what ranked)
    gain: float | None = None  # a split: its gain (Gini gain for gini; C4.5's corrected gain)
    origin: object = field(default=None, repr=False)  # the Growth that can rebuild this node's table

    @property
    def path(self) -> tuple[str, ...]:
        """The conditions from the root to this node."""
        return self.origin.path(self.node_id) if self.origin is not None else ()

    @property
    def n(self) -> float:
        return self.weight

    @property
    def headline(self) -> str:
        """The reason's first sentence: the decision and the number that made it. The sentences
        after it are notes (how a cut is written, a tie and its rule): a projector shows the
        headline beside the tree, the whole reason with the numbers."""
        first = _SENTENCE_END.search(self.reason)
        return self.reason[:first.start() + 1] if first else self.reason

    @property
    def evaluation(self):
        """Every candidate at this node and the choice among them (`splits.Evaluation`), made on
        request; None for a step without training rows behind it (pruning steps)."""
        if self.origin is None or self.action not in GROWTH_ACTIONS:
            return None
        return self.origin.evaluation(self.node_id)

    @property
    def candidates(self):
        """The node's candidate table in columns (`table.CandidateTable`), or None."""
        if self.origin is None or self.action not in GROWTH_ACTIONS:
            return None
        return self.origin.candidates(self.node_id)

    @property
    def table(self) -> pd.DataFrame:
        """The node's candidate table, exactly as `split_table` gives it for this node's rows;
        at a leaf every row is unchosen."""
        candidates = self.candidates
        if candidates is None:
            return empty_frame(self.value is not None and not self.class_weights)
        table = candidates.frame()
        if self.details.get("by_hand"):  # a hand-grown split: its row is the one chosen
            return table.assign(chosen=np.arange(len(table)) == self.details.get("row"))
        if self.action != SPLIT and table["chosen"].any():
            table = table.assign(chosen=False)
        return table

    @property
    def chosen_row(self) -> int | None:
        """Position of the chosen candidate in `table` (None for a leaf)."""
        if self.action != SPLIT or self.candidates is None:
            return None
        if self.details.get("by_hand"):
            return self.details.get("row")
        return self.candidates.chosen_row

    def _repr_html_(self) -> str | None:
        """Jupyter: the decision, its candidate table and the chosen row's formulas (`display`)."""
        return DISPLAY["step"](self) if "step" in DISPLAY else None

    @property
    def surrogates(self) -> tuple:
        """The ranked surrogate splits of this step's binary split (CART; `surrogates` module)."""
        if self.found_surrogates is not None:
            return self.found_surrogates
        if self.action != SPLIT or self.origin is None or len(self.test.branch_labels) != 2:
            return ()
        return self.origin.surrogates(self.node_id)


class Growth(NodeCache):
    """What a grown tree's growth steps need to rebuild their tables: the training data, the
    settings, and each node's parent and split. Tables and surrogates are cached per node
    (`table_cache.NodeCache`); the cache (and the encoding) are not pickled."""

    def __init__(self, data, settings, class_factor, task: str) -> None:
        self.data = data
        self.settings = settings
        self.class_factor = class_factor
        self.task = task
        self.steps: tuple = ()  # the growth steps
        self.training_leaves: np.ndarray | None = None  # each training row's leaf (node id), if one
        self._cache: dict = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_cache", "_lock")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._cache = {}
        self._lock = threading.Lock()

    def record(self, steps, training_leaves: np.ndarray | None = None) -> None:
        """The growth steps; `training_leaves`: the leaf each training row reached as the tree
        grew (node ids), where every row took one path."""
        self.steps = tuple(steps) if isinstance(steps, (list, tuple)) else steps  # (grown steps: made when read)
        self.training_leaves = training_leaves

    @property
    def splits(self) -> dict:
        """node id -> its growth SPLIT step."""
        if "splits" not in self._cache:
            self._cache["splits"] = {step.node_id: step for step in self.steps if step.action == SPLIT}
        return self._cache["splits"]

    @property
    def parent(self) -> dict:
        """node id -> (parent id, branch index)."""
        if "parent" not in self._cache:
            self._cache["parent"] = {child: (step.node_id, b) for step in self.splits.values()
                                     for b, child in enumerate(step.child_ids)}
        return self._cache["parent"]

    @property
    def encoded(self):
        if "encoded" not in self._cache:
            self._cache["encoded"] = Encoded(self.data, self.task, self.class_factor)
        return self._cache["encoded"]

    def ancestry(self, node_id: int) -> tuple[tuple[Step, int], ...]:
        """The (split step, branch) pairs from the root down to the node (a walk up the parents,
        kept with the node's table: its rows, path and used attributes all read it)."""
        edge = getattr(self.steps, "edge", None)  # grown steps: growth's record knows each parent
        if edge is None:
            if "edges" not in self._cache:  # node id -> (its parent's split step, branch), made once
                splits = self.splits
                self._cache["edges"] = {child: (splits[parent], b) for child, (parent, b) in self.parent.items()}
            edge = self._cache["edges"].get

        def make():  # no new tuple per level: a deep chain's would wake the garbage collector
            chain, node = [], node_id
            while (above := edge(node)) is not None:
                chain.append(above)
                node = above[0].node_id
            return tuple(reversed(chain))
        return self._kept(node_id, "ancestry", make)

    def path(self, node_id: int) -> tuple[str, ...]:
        return tuple(step.test.condition(b) for step, b in self.ancestry(node_id))

    def used(self, node_id: int) -> frozenset:
        """The attributes ID3 may not test again below this node."""
        encoded = self.encoded
        multiway_numbers = self.settings.numeric_split == "multiway"
        return frozenset(step.test.attribute for step, _ in self.ancestry(node_id)
                         if encoded.kind(step.test.attribute) == "categorical" or multiway_numbers)

    def rows(self, node_id: int) -> tuple[np.ndarray, np.ndarray]:
        """The training rows reaching the node and their weights, as growth sent them."""
        return self._kept(node_id, "rows",
                          lambda: training_rows(self.encoded, self.ancestry(node_id), self.settings))

    def evaluation(self, node_id: int):
        def make():
            rows, weights = self.rows(node_id)
            return evaluate(self.encoded, rows, weights, self.settings, self.used(node_id))
        return self._kept(node_id, "evaluation", make)

    def candidates(self, node_id: int) -> CandidateTable:
        return self._kept(node_id, "candidates", lambda: CandidateTable.of(self.evaluation(node_id)))

    def surrogates(self, node_id: int) -> tuple:
        def make():
            rows, weights = self.rows(node_id)
            return surrogates_of(self.encoded, rows, weights, self.splits[node_id].test, self.settings.max_surrogates)
        return self._kept(node_id, "surrogates", make)
