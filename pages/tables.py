"""The candidate table and a node's rows as the pages show them (the Step, Tree and Practice
pages read the same columns, headings and formats). Helpers only: no page runs here."""

import pandas as pd
import streamlit as st

from dtlearn.node_rows import rows_at
from dtlearn.formatting import label
from dtlearn.criteria import CRITERIA, criterion
from dtlearn.criteria import FAMILIES as CRITERION_FAMILIES
from dtlearn.measures import RANKED_BY
from dtlearn.quantities import QUANTITIES
from dtlearn.shorten import INVISIBLE, LABEL_CHARS, shown, shown_branch, shown_names, visible
from dtlearn.shorten import shown_candidate as candidate_text  # pages import it from here
from pages import session, wording

MEASURES = {key: q.heading for key, q in QUANTITIES.items() if key != "score"}  # column -> heading
CORRECTED = ("C4.5 (release 8, as J48) subtracts log₂(number of cuts)/N from a threshold's gain before its "
             "gain ratio: Gain′ = Gain − log₂(cuts)/N (Quinlan 1996)")
CHAR_PX = 8  # a generous width of one character of the table's 14 px type (Source Sans: 3-8 px)
RANKED_NAMES = {c.ranks_by: c.quantity.heading for c in CRITERIA.values()}



def branches_text(row) -> str:
    parts = []
    for i, branch in enumerate(row["branches"]):
        name = shown(branch[2:]) if row["kind"] == "multiway" else shown_branch(branch).replace("<=", "≤")
        if "branch_counts" in row:
            held = "/".join(label(round(c, 3)) for c in row["branch_counts"][i])
        else:
            n, mean = row["branch_stats"][i]
            held = f"{label(round(n, 3))} rows, mean {mean:.3f}"
        parts.append(f"{name}: {held}")
    return " · ".join(parts)


def candidate_width(texts) -> int:
    """The candidate column's width in px: the longest name whole (Tan's "✓ Marital Status in
    {Married}" was cut at a fixed 140 px), up to a limit that keeps the ranked column in view."""
    longest = max((len(t) for t in texts), default=0)
    return min(max(140, CHAR_PX * longest + 24), 360)


def named(sentence: str, *names) -> str:
    """A sentence naming names from a file, each shortened as the cells show it (invisible
    characters visible everywhere in it)."""
    for name in sorted(map(str, names), key=len, reverse=True):
        if len(name) > LABEL_CHARS:
            sentence = sentence.replace(name, shown(name))
    return visible(sentence)


def shortened_table(frame: pd.DataFrame, config: dict | None = None,
                    prose: tuple = ()) -> tuple[pd.DataFrame, dict]:
    """A table of a file's names and values as a page draws it: long text cells and column names
    cut (dtlearn.shorten), invisible characters made visible. A shortened column name's heading
    has the whole name in its tooltip; whole cells are on the Data page (one row in full).
    `config` (column settings by the original names) follows its columns' new names; the
    `prose` columns hold the app's own sentences and are not cut."""
    shown_frame = frame.copy()
    for column in frame.columns:
        values = frame[column]
        if values.dtype.kind in "biufcmM" or column in prose:  # numbers, dates, sentences: nothing to cut
            continue
        text = values.astype("string")
        long = (text.str.len() > LABEL_CHARS) | text.str.contains(INVISIBLE.pattern, regex=True)
        long = long.fillna(False).to_numpy(dtype=bool)
        if long.any():
            cells = values.astype(object).copy()
            cells[long] = [shown(v) for v in values[long]]
            shown_frame[column] = cells
    names = shown_names(frame.columns)
    shown_frame.columns = names
    settings = {}
    for name, head in zip(frame.columns, names):
        given = (config or {}).get(name)
        if head != str(name):
            tip = wording.md(visible(name))
            given = st.column_config.Column(help=tip) if given is None else {**given, "help": tip}
        if given is not None:
            settings[head] = given
    return shown_frame, settings


def ranked_column(tree) -> str:
    """The table column the criterion ranks candidates by (regression: the score, ΔMSE)."""
    return "score" if tree.is_regression else RANKED_BY.get(tree.settings.criterion, "score")


# each criterion family's columns, as display_table heads them
FAMILIES = {family: tuple(MEASURES[key] for key in c.columns) for family, c in CRITERION_FAMILIES.items()}


def _family(tree) -> str:
    return "squared_error" if tree.is_regression else criterion(tree.settings.criterion).family


def family_table(drawn: pd.DataFrame, tree) -> pd.DataFrame:
    """A displayed candidate table with only the ranked measure's family of columns (a projector:
    the columns the algorithm works with, none off to the right)."""
    measures = set(MEASURES.values())
    return drawn[[c for c in drawn.columns if c not in measures or c in FAMILIES[_family(tree)]]]


def display_table(table: pd.DataFrame, tree) -> tuple[pd.DataFrame, dict]:
    """The candidate table as students read it (tests, every measure, rows per branch), and
    its column settings: 3 decimals, narrow number columns. The measure the criterion ranks by
    comes first, its heading saying so."""
    records = table.to_dict("records")
    held = "n, mean" if tree.is_regression else "/".join(shown(c) for c in tree.classes)
    drawn = pd.DataFrame({"candidate": [("✓ " if r["chosen"] else "") + candidate_text(r) for r in records],
                          f"rows per branch ({held})": [branches_text(r) for r in records]}, index=table.index)
    ranked = ranked_column(tree)
    ranked_heading = f"★ {RANKED_NAMES[ranked]}"
    drawn[ranked_heading] = pd.to_numeric(table[ranked], errors="coerce")
    corrected = "correction" in table and (pd.to_numeric(table["correction"], errors="coerce") > 0).any()
    for column, heading in MEASURES.items():
        if column not in table or column == ranked:
            continue
        values = pd.to_numeric(table[column], errors="coerce")
        if values.isna().all():  # a measure none of these candidates has (one of binary splits, here per value)
            continue
        if column == "known" and (values >= 1).all():
            continue
        if column in ("correction", "corrected_gain") and not corrected:
            continue
        drawn[heading] = values
    # the ranked measure's family next to it (CART's Gini columns were off to the right of the
    # entropy ones at 1280 px), the other measures after
    family = set(FAMILIES[_family(tree)])
    measures = [c for c in drawn.columns if c in set(MEASURES.values())]
    drawn = drawn[[c for c in drawn.columns if c not in measures] + [c for c in measures if c in family]
                  + [c for c in measures if c not in family]]
    reasons = [named(r["reason"], r["attribute"]) if not r["chosen"] else "" for r in records]
    reasons = [f"ties with the chosen row (within 1e-12): the first in the table wins{'; ' + why if why else ''}"
               if r["tied"] and not r["chosen"] else why for r, why in zip(records, reasons)]
    if any(reasons):
        drawn["why not chosen"] = reasons
    fmt = session.number_format()
    width = 64 if fmt == "%.3f" else 84
    quantity = {q.heading: q for key, q in QUANTITIES.items() if key in MEASURES}
    config = {"candidate": st.column_config.TextColumn(width=candidate_width(drawn["candidate"])),
              f"rows per branch ({held})": st.column_config.TextColumn(width=210),
              ranked_heading: st.column_config.NumberColumn(
                  format=fmt, width=90, help=f"What the algorithm ranks the candidates by. "
                                             f"{QUANTITIES[ranked].introduced}"),
              **{h: st.column_config.NumberColumn(format=fmt, width=width, help=quantity[h].introduced)
                 for h in drawn.columns if h in quantity}}
    if "Gain′" in drawn:
        config["Gain′"] = st.column_config.NumberColumn(format=fmt, width=64, help=CORRECTED)
        config["log₂(cuts)/N"] = st.column_config.NumberColumn(format="%.4f", width=84, help=CORRECTED)
    return drawn, config


def show_rows(v, partial, node, k: int) -> None:
    """The node's rows in an expander, open at first for a small node below the root; the table
    is sent only while it is open."""
    positions, weights = rows_at(partial, v.data.frame, node.id)
    box = st.expander(f"The {len(positions)} rows at this node", expanded=bool(node.path) and 0 < len(positions) <= 12,
                      key=f"rows_open_{k}", on_change="rerun")
    if box.open:
        rows = v.data.frame.iloc[positions].copy()
        rows.index = positions + 1
        if (weights != 1).any():
            rows.insert(0, "weight", weights.round(3))
        rows, config = shortened_table(rows)
        box.dataframe(rows, width="stretch", height=min(38 + 35 * len(rows), 420), column_config=config)
