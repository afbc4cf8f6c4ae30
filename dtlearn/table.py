"""A node's candidate table, built in columns.

`CandidateTable` holds every candidate's numbers as numpy columns, taken straight from the
`measures` definitions of each attribute's block; the text of a row (its test, branch labels,
class weights per branch, the reason it was not chosen) is written only for the rows asked
for. `frame()` is the whole table as a DataFrame, one row per candidate, in table order:
attributes in column order, thresholds ascending, subsets in enumeration order (with two
classes, CART's p-1 sets of Breiman's ordering first: the ones scored; then every other
partition, listed so that each can be checked, its reason naming the shortcut).
A cut's `threshold` is the midpoint it is scored at; its `test` and `branches` write it as the
tree does (with `threshold_at_data_value`, the largest training value not above the midpoint).

Columns (classification): attribute, kind, test, threshold, branches, branch_counts, n, known,
entropy_before, entropy_after, gain, correction (C4.5's log2(#cuts)/N, 0 where none applies),
cuts (the cuts that correction counts: those satisfying the split rules; NaN where none),
corrected_gain (gain - correction), split_info, gain_ratio (corrected_gain / split_info: the
ratio that ranks), gini_before, gini_after, gini_gain, cart_measure, error_before,
error_after, score (the number the criterion ranks by), eligible, reason, chosen, tied.
Regression: branch_stats ((n, mean) per branch), sse_before, sse_after, sse_reduction,
mse_before, mse_after, and score = the decrease in mean squared error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from .candidates import data_value_below
from .criteria import CLASS_COLUMNS, CRITERIA
from .formatting import label
from .measures import KEPT_MEASURES_UP_TO
from .rules import (AVERAGE_TOLERANCE, BELOW_AVERAGE, FEW_CASES, NO_CORRECTED_GAIN, NO_KNOWN, NOT_BEST_THRESHOLD, OK,
                    ONE_BRANCH, SHORTCUT, SMALL_LEAF, SMALL_SIDE, TIE, USED, ZERO_RATIO)
from .splits import cut_rank, cut_rule, one_cut_competes, scored_only, split_limits

# the measures of every criterion (`criteria`), then those no criterion ranks by (Zaki & Meira's CART
# measure, the misclassification error)
MEASURE_COLUMNS = tuple(c for c in CLASS_COLUMNS if c != "known") + ("cart_measure", "error_before", "error_after")
TABLE_COLUMNS = [
    "attribute", "kind", "test", "threshold", "branches", "branch_counts", "n", "known",
    *(c for m in MEASURE_COLUMNS for c in ((m, "cuts") if m == "correction" else (m,))),  # the cuts it counts
    "score", "eligible", "reason", "chosen", "tied",
]
# regression's measures, as the table names them and as RegressionStats does
REGRESSION_MEASURES = {c: "reduction" if c == "sse_reduction" else c for c in CRITERIA["squared_error"].columns}
REGRESSION_COLUMNS = [
    "attribute", "kind", "test", "threshold", "branches", "branch_stats", "n", "known", *REGRESSION_MEASURES,
    "score", "eligible", "reason", "chosen", "tied",
]
TEXT_COLUMNS = ("attribute", "kind", "test", "branches", "branch_counts", "branch_stats", "reason")
KINDS = ("threshold", "multiway", "subset")
PER_BLOCK = ("n", "known", "cuts")  # one value per attribute at a node
# reasons that exclude a candidate for its attribute's sake, not its own: the split rules allow it
ATTRIBUTE_REASONS = (USED, NOT_BEST_THRESHOLD, NO_CORRECTED_GAIN, BELOW_AVERAGE, ZERO_RATIO)
# A node of a large upload has a cut between every two of its distinct values (a million rows:
# millions of candidates). Past this many per attribute, a listing keeps that attribute's best
# ones by score (`CandidateTable.excerpt`): the numbers of the rows listed are the table's own.
LISTED_PER_ATTRIBUTE = 200
LISTED_ROWS = 2000  # a table up to this long is listed whole


def candidate_name(row) -> str:
    """A candidate (a table row) as a sentence names it: its test, or the attribute alone for
    a split per value."""
    return str(row["attribute"]) if row["kind"] == "multiway" else str(row["test"])


def empty_frame(regression: bool = False) -> pd.DataFrame:
    return pd.DataFrame(columns=REGRESSION_COLUMNS if regression else TABLE_COLUMNS)


def listed_table(step, also=(), by: tuple[str, ...] = ("score",)) -> pd.DataFrame:
    """A step's candidate table as far as it is listed: `step.table` itself up to LISTED_ROWS
    rows, else its `excerpt` (plus the positions in `also`; `by`: the columns whose best rows
    must be there), marked chosen as `step.table` marks it. Rows are indexed by their position
    in the whole table: read them with `.loc`."""
    candidates = step.candidates
    if candidates is None or len(candidates) <= LISTED_ROWS:
        return step.table
    by = tuple(name for name in by if name in candidates.columns or name in candidates.measure_names)
    table = candidates.frame(candidates.excerpt(by=by or ("score",), also=(step.chosen_row, *also)).rows)
    return table.assign(chosen=table.index == step.chosen_row)


@dataclass(frozen=True, eq=False)
class CandidateTable:
    """Every candidate of one node, in columns. What ranks (score, eligible, chosen, tied) and
    the shape of each row (threshold, n, known) are columns of every row from the start; each
    measure column is computed for every row when it is first asked for (`table["gain"]`), or
    for the rows of a `frame(rows)` alone."""

    evaluation: object  # splits.Evaluation
    columns: dict  # name -> (rows,) array, for every row
    per_block: dict  # name -> (blocks,) array: a column with one value per attribute (n, known, cuts)
    block: np.ndarray  # (rows,) the attribute (block) of each row
    index: np.ndarray  # (rows,) the candidate's index within its block
    reason_code: np.ndarray  # (rows,)
    starts: np.ndarray  # (blocks + 1,) where each block's rows start

    @staticmethod
    def of(evaluation) -> "CandidateTable":
        # A large upload's root has millions of rows: what every row needs is kept in narrow
        # types, a column with one value per attribute once per attribute, thresholds in their blocks.
        parts = [_block_columns(evaluation, j) for j in range(len(evaluation.blocks))]
        names = parts[0][0].keys() if parts else ()
        columns = {name: np.concatenate([p[0][name] for p in parts]) for name in names}
        per_block = {name: np.array([p[1][name] for p in parts], dtype=float) for name in PER_BLOCK}
        sizes = [len(p[2]) for p in parts]
        block = np.repeat(np.arange(len(parts), dtype=np.int32), sizes)
        index = np.concatenate([np.arange(n, dtype=np.int32) for n in sizes]) if parts else np.zeros(0, np.int32)
        reasons = np.concatenate([p[2] for p in parts]).astype(np.int8) if parts else np.zeros(0, np.int8)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return CandidateTable(evaluation, columns, per_block, block, index, reasons, starts)

    def __len__(self) -> int:
        return len(self.block)

    @property
    def regression(self) -> bool:
        return self.evaluation.encoded.is_regression

    @property
    def measure_names(self) -> tuple[str, ...]:
        return tuple(REGRESSION_MEASURES) if self.regression else MEASURE_COLUMNS

    def __getitem__(self, name: str) -> np.ndarray:
        """A numeric column of every row (no text is written); a measure is computed on first use
        (and kept, but for a table of millions of rows)."""
        if name in self.columns:
            return self.columns[name]
        if name in self.per_block:
            return self.per_block[name][self.block]
        if name == "threshold":
            parts = [self._block_thresholds(j) for j in range(len(self.evaluation.blocks))]
            return np.concatenate(parts) if parts else np.zeros(0)
        if name not in self.measure_names:
            raise KeyError(name)
        parts = [_measure(block.stats, name, np.arange(block.size)) for block in self.evaluation.blocks]
        column = np.concatenate(parts) if parts else np.zeros(0)
        if len(self) <= KEPT_MEASURES_UP_TO:
            self.columns[name] = column
        return column

    @property
    def chosen_row(self) -> int | None:
        chosen = self.columns["chosen"]
        return int(chosen.argmax()) if chosen.any() else None

    def best_rows(self) -> np.ndarray:
        """Each attribute's best row, and the chosen row: what a page lists first. The best is
        the eligible row first; else, among the rows the split rules allow (an attribute left
        out as a whole: C4.5's average-gain rule, its corrected gain, ID3's reuse), the one its
        attribute would compete with; else any row. Within these, the highest by the measure
        that picks an attribute's candidate (C4.5's thresholds: `splits.cut_rank`; else the
        score), the first in the table on a tie."""
        score = np.nan_to_num(self.columns["score"], nan=-np.inf)
        eligible = self.columns["eligible"]
        allowed = eligible | np.isin(self.reason_code, ATTRIBUTE_REASONS)
        keep = self.columns["chosen"].copy()
        settings = self.evaluation.settings
        for j, (start, stop) in enumerate(zip(self.starts[:-1], self.starts[1:])):
            if stop == start:
                continue
            rank = cut_rank(settings, self.evaluation.blocks[j].kind, allowed[start:stop],
                            lambda name: self._block_values(j, name))
            rank = score[start:stop] if rank is None else np.nan_to_num(rank, nan=-np.inf)
            for tier in (eligible[start:stop], allowed[start:stop], np.ones(stop - start, dtype=bool)):
                if tier.any():
                    keep[start + int(np.argmax(np.where(tier, rank, -np.inf)))] = True  # the first of the highest
                    break
        return np.flatnonzero(keep)

    def excerpt(self, per_attribute: int = LISTED_PER_ATTRIBUTE, by: tuple[str, ...] = ("score",),
                also=()) -> "Excerpt":
        """The rows to list of a table too long to build whole: every candidate of an attribute
        with at most `per_attribute` of them; of a longer one its `per_attribute` best by score
        (ties: the first in the table) and its first best by each other column of `by` (so the
        best of the whole table by any of them is listed too). Each attribute's best row
        (`best_rows`), the chosen and tied rows and the positions in `also` are always listed.
        Kept per question: a page asks again on every rerun, and for millions of rows the
        measures are not kept."""
        also = tuple(int(i) for i in also if i is not None)
        question = (per_attribute, tuple(by), also)
        excerpts = self.__dict__.setdefault("_excerpts", {})
        if question not in excerpts:
            excerpts[question] = self._excerpt(per_attribute, tuple(by), also)
        return excerpts[question]

    def _excerpt(self, per_attribute: int, by: tuple[str, ...], also: tuple[int, ...]) -> "Excerpt":
        keep = np.zeros(len(self), dtype=bool)
        keep[self.best_rows()] = True
        keep |= self.columns["chosen"] | self.columns["tied"]
        keep[np.asarray(also, dtype=np.int64)] = True
        short = []
        for j, (start, stop) in enumerate(zip(self.starts[:-1], self.starts[1:])):
            if stop - start <= per_attribute:
                keep[start:stop] = True
                continue
            for k, name in enumerate(by):
                values = np.nan_to_num(self._block_values(j, name, forget=False), nan=-np.inf)
                if k == 0:  # a stable sort: equal scores keep table order
                    keep[start + np.argsort(-values, kind="stable")[:per_attribute]] = True
                else:
                    keep[start + int(np.argmax(values))] = True
            self.evaluation.blocks[j].stats.forget_if_large()  # the measures of `by` share their parts
            short.append((self.evaluation.attributes[j], int(keep[start:stop].sum()), int(stop - start)))
        return Excerpt(np.flatnonzero(keep), tuple(short), by[0])

    def _block_values(self, j: int, name: str, forget: bool = True) -> np.ndarray:
        """A column's values over attribute j's rows (a measure not kept: computed for them alone)."""
        start, stop = self.starts[j], self.starts[j + 1]
        if name in self.columns:
            return self.columns[name][start:stop]
        if name in self.per_block:
            return np.full(stop - start, self.per_block[name][j])
        if name == "threshold":
            return self._block_thresholds(j)
        return _measure(self.evaluation.blocks[j].stats, name, np.arange(stop - start), forget)

    @cached_property
    def _frame(self) -> pd.DataFrame:
        for name in self.measure_names:
            self[name]
        return self._build(np.arange(len(self)))

    def frame(self, rows=None) -> pd.DataFrame:
        """The table as a DataFrame: every row, or the rows (positions) given, with their text.
        The index is the rows' positions in the whole table."""
        if rows is None:
            return self._frame
        return self._build(np.asarray(rows, dtype=np.int64))

    def _build(self, rows: np.ndarray) -> pd.DataFrame:
        order = REGRESSION_COLUMNS if self.regression else TABLE_COLUMNS
        if len(self) == 0:
            return empty_frame(self.regression)
        data = {name: values[rows] for name, values in self.columns.items()}
        data.update({name: values[self.block[rows]] for name, values in self.per_block.items()})
        data["threshold"] = self._thresholds(rows)
        for name in self.measure_names:
            if name not in data:
                data[name] = self._measure_of(name, rows)
        data.update(self._text(rows))
        return pd.DataFrame(data, index=rows)[order]

    def _block_thresholds(self, j: int) -> np.ndarray:
        """Attribute j's cut thresholds (NaN for candidates that are not cuts)."""
        block = self.evaluation.blocks[j]
        return np.full(block.size, np.nan) if block.thresholds is None else block.thresholds

    def _thresholds(self, rows: np.ndarray) -> np.ndarray:
        """The threshold of each row given (NaN for a row that is not a cut)."""
        out = np.full(len(rows), np.nan)
        blocks = self.block[rows]
        for j in np.unique(blocks):
            mine = blocks == j
            out[mine] = self._block_thresholds(j)[self.index[rows[mine]]]
        return out

    def _measure_of(self, name: str, rows: np.ndarray) -> np.ndarray:
        """A measure for some rows only, block by block."""
        out = np.empty(len(rows))
        blocks = self.block[rows]
        for j in np.unique(blocks):
            mine = blocks == j
            out[mine] = _measure(self.evaluation.blocks[j].stats, name, self.index[rows[mine]])
        return out

    def _text(self, rows: np.ndarray) -> dict:
        evaluation = self.evaluation
        blocks = evaluation.blocks
        attributes = evaluation.attributes
        tests, branches, held = [], [], []
        written = evaluation.settings.threshold_at_data_value
        for j, i in zip(self.block[rows].tolist(), self.index[rows].tolist()):
            block = blocks[j]
            if block.kind == "threshold":
                cut = float(block.thresholds[i])
                cut = label(data_value_below(evaluation.encoded.numeric(block.attribute), cut) if written else cut)
                tests.append(f"{block.attribute} <= {cut}")
                branches.append((f"<= {cut}", f"> {cut}"))
            else:
                test = block.test(i)
                tests.append(test.describe())
                branches.append(test.branch_labels)
            held.append(_held(block.stats, i, self.regression))
        reasons = [self._reason_text(int(c), blocks[j]) for c, j in zip(self.reason_code[rows], self.block[rows])]
        return {"attribute": [attributes[j] for j in self.block[rows]],
                "kind": [blocks[j].kind for j in self.block[rows]],
                "test": tests, "branches": branches,
                ("branch_stats" if self.regression else "branch_counts"): held, "reason": reasons}

    def _reason_text(self, code: int, block) -> str:
        s = self.evaluation.settings
        if code == OK:
            return block.note
        texts = {
            NO_KNOWN: "no row has a value for this attribute here",
            ONE_BRANCH: "all rows fall into one branch",
            SMALL_LEAF: f"a branch would hold less than min_samples_leaf = {label(s.min_samples_leaf)} rows",
            FEW_CASES: f"fewer than two branches hold at least {label(s.min_branch_cases)} cases (C4.5's -m, J48's -M)",
            SMALL_SIDE: "a side would hold fewer cases than C4.5's minimum for a threshold",
            USED: "already tested on this path (ID3 tests an attribute once per path)",
            NOT_BEST_THRESHOLD: cut_rule(s, block.attribute),
            NO_CORRECTED_GAIN: "gain minus C4.5's threshold correction is not positive",
            BELOW_AVERAGE: f"gain is below the average gain {self.evaluation.average_gain:.4f} (C4.5 ranks by "
                           "gain ratio only the candidates with at least average gain)",
            ZERO_RATIO: "gain ratio is 0",
            SHORTCUT: (f"not scored: with two classes a best split is among the {block.scored} subsets listed first "
                       "(the values ordered by their share of one class; Breiman et al. 1984, Thm 4.5); "
                       "listed so you can check it"),
        }
        return texts[code]


@dataclass(frozen=True)
class Excerpt:
    """The rows of a candidate table that a listing shows (`CandidateTable.excerpt`)."""

    rows: np.ndarray  # positions in the whole table, ascending
    short: tuple[tuple[str, int, int], ...]  # (attribute, rows listed, candidates) of each attribute cut short
    ranked_by: str  # the column that picked the rows kept

    def note(self, measure: str | None = None) -> str:
        """What was left out, in words ('' when nothing was): '200 of 199,998 candidates of height
        listed (the best by gain ratio)'."""
        by = measure or self.ranked_by
        return "; ".join(f"{listed:,} of {total:,} candidates of {attribute} listed (the best by {by})"
                         for attribute, listed, total in self.short)


def _measure(stats, name: str, rows: np.ndarray, forget: bool = True) -> np.ndarray:
    """A measure column of some of a block's candidates (the `measures` definitions)."""
    subset = stats if len(rows) == stats.branches.shape[0] else stats.take(rows)
    value = subset.correction if name == "correction" else getattr(subset, REGRESSION_MEASURES.get(name, name))
    value = np.broadcast_to(np.asarray(value, dtype=float), (len(rows),)).astype(float)
    if forget:
        stats.forget_if_large()  # the table keeps the column; the stats need not keep its ingredients
    return value


def _held(stats, i: int, regression: bool) -> tuple:
    """A candidate's branches: class weights per branch, or (n, mean) per branch (regression)."""
    branches = stats.branches[i]
    if not regression:
        return tuple(tuple(float(c) for c in b) for b in branches)
    with np.errstate(divide="ignore", invalid="ignore"):
        return tuple((float(b[0]), float(b[1] / b[0])) for b in branches)


def _block_columns(evaluation, j: int) -> tuple[dict, dict, np.ndarray]:
    """The numeric columns of attribute j's candidates, its one-value columns (PER_BLOCK) and
    the rows' reason codes."""
    block, best = evaluation.blocks[j], evaluation.bests[j]
    settings, encoded = evaluation.settings, evaluation.encoded
    s, n = block.stats, block.size
    ok, reason = scored_only(block, *split_limits(settings, s, max(len(encoded.classes), 1), block.kind))
    reason = _row_reasons(evaluation, block, best, ok, reason)
    chosen = np.zeros(n, dtype=bool)
    if evaluation.chosen_attribute == j:
        chosen[best.index] = True
    # n and rho are the node's and the attribute's, the same for every candidate (the first's)
    per_block = {"n": float(np.ravel(s.n)[0]) if n else np.nan, "known": float(np.ravel(s.known)[0]) if n else np.nan,
                 "cuts": float(ok.sum()) if block.kind == "threshold" and settings.threshold_correction else np.nan}
    columns = {"score": np.asarray(s.gain if encoded.is_regression else s.score_by(settings.criterion), dtype=float)}
    columns["eligible"] = reason == OK
    columns["chosen"] = chosen
    columns["tied"] = _tied_rows(evaluation, j, ok | (reason == SHORTCUT))
    s.forget_if_large()
    return columns, per_block, reason


def _row_reasons(evaluation, block, best, ok, reason) -> np.ndarray:
    """Each row's reason: the split rules, then the attribute's (ID3's reuse, C4.5's threshold
    by gain and its average-gain rule)."""
    settings = evaluation.settings
    reason = reason.copy()
    if best.reason == USED:  # the reason a student needs first, whatever else holds
        return np.full_like(reason, USED)
    if one_cut_competes(settings, block.kind):
        others = ok.copy()
        if best.index >= 0:
            others[best.index] = False
        reason = np.where(others, NOT_BEST_THRESHOLD, reason)
        if best.index < 0 and best.reason == NO_CORRECTED_GAIN:
            reason = np.where(ok, NO_CORRECTED_GAIN, reason)
    if settings.average_gain_rule and best.index >= 0 and reason[best.index] == OK:
        if best.gain < evaluation.average_gain - AVERAGE_TOLERANCE:
            reason[best.index] = BELOW_AVERAGE
        elif best.score <= 0:
            reason[best.index] = ZERO_RATIO
    return reason


def _tied_rows(evaluation, j: int, ok: np.ndarray) -> np.ndarray:
    """Rows in the winning tie: attributes tying at the top (their competing candidate), and
    within the winner's attribute the candidates tying on the measure that picked its best
    (`ok`: those the rules allow, a listed one no search scores included)."""
    block, best = evaluation.blocks[j], evaluation.bests[j]
    tied = np.zeros(block.size, dtype=bool)
    attribute = evaluation.attributes[j]
    if attribute not in evaluation.tied or best.index < 0:
        return tied
    if evaluation.chosen_attribute == j:
        s = block.stats
        rank = cut_rank(evaluation.settings, block.kind, ok, lambda name: getattr(s, name))
        rank = s.score_by(evaluation.settings.criterion) if rank is None else rank
        tied = ok & (rank >= rank[best.index] - TIE)
        if tied.sum() < 2:
            tied[:] = False
    elif len(evaluation.tied) > 1:
        tied[best.index] = True
    if len(evaluation.tied) > 1:
        tied[best.index] = True
    return tied
