"""Files of the shapes that made pages outlast the budget or take the server down (issue 33), drawn
by our own generator: wide, high-cardinality, a huge ARFF, and tables whose tree has one step.

Each is small enough for CI, yet past the thresholds that matter: more columns than a page has
widgets for, more values of one column than a page has boxes for, more bytes than the reading
progress shows at once (1 MB), a tree too big to lay out in the time a page may take.
`HOSTILE` names each file with the algorithm that makes it hardest.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pandas as pd

WIDE_COLUMNS = 5_000  # the 5,000 columns: a widget or a worksheet column each
WIDE_ROWS = 120
HIGH_VALUES = 50_000  # distinct categories of one column (repeated, so not an identifier)
HIGH_ROWS = 60_000
ARFF_ROWS = 120_000  # about 6 MB of ARFF: past the 1 MB of an eager progress bar
ONE_STEP_ROWS = 50_000  # identical rows: a one-leaf tree made of many rows


@dataclass(frozen=True)
class Hostile:
    name: str  # the file's name, as uploaded
    content: bytes
    algorithm: str  # the preset that makes it hardest
    mime: str = "text/csv"


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def wide(rng: np.random.Generator, rows: int = WIDE_ROWS) -> bytes:
    """`rows` rows of WIDE_COLUMNS small whole numbers and a class: Predict's inputs, the
    worksheet's columns and Compare's four trees all grow with the columns."""
    values = rng.integers(0, 4, (rows, WIDE_COLUMNS))
    frame = pd.DataFrame(values, columns=[f"a{i}" for i in range(WIDE_COLUMNS)])
    frame["y"] = rng.choice(["yes", "no"], rows)
    return _csv(frame)


def high_cardinality(rng: np.random.Generator, rows: int = HIGH_ROWS) -> bytes:
    """A categorical column of HIGH_VALUES distinct values over `rows` rows (some repeat, so it is
    no identifier): ID3 splits the root HIGH_VALUES ways; Practice has a box per branch."""
    codes = np.concatenate([np.arange(HIGH_VALUES), rng.integers(0, HIGH_VALUES, max(rows - HIGH_VALUES, 0))])
    frame = pd.DataFrame({"code": [f"k{c}" for c in rng.permutation(codes)],
                          "colour": rng.choice(["red", "green", "blue"], len(codes)),
                          "y": rng.choice(["yes", "no"], len(codes))})
    return _csv(frame)


def huge_arff(rng: np.random.Generator, rows: int = ARFF_ROWS) -> bytes:
    """`rows` rows of four numbers, a nominal and a class set by x0 + x1 > 1 with a tenth of the
    labels flipped: C4.5 grows a staircase of hundreds of nodes along the diagonal."""
    out = io.StringIO()
    out.write("@relation diagonal\n")
    for i in range(4):
        out.write(f"@attribute x{i} numeric\n")
    out.write("@attribute c {p,q,r,s}\n@attribute y {yes,no}\n@data\n")
    numbers = rng.uniform(0, 1, (rows, 4)).round(4)
    nominal = rng.choice(list("pqrs"), rows)
    label = (numbers[:, 0] + numbers[:, 1] > 1) ^ (rng.random(rows) < 0.1)
    for row, c, y in zip(numbers.tolist(), nominal, label):
        out.write(",".join(map(str, row)) + f",{c},{'yes' if y else 'no'}\n")
    return out.getvalue().encode()


def one_row() -> bytes:
    return b"a,b,y\n1,p,yes\n"


def identical_rows() -> bytes:
    """ONE_STEP_ROWS copies of one row: a tree of one leaf, one step."""
    return b"a,b,y\n" + b"1,p,yes\n" * ONE_STEP_ROWS


def huge_integers() -> bytes:
    """A column of integers past a float's precision with one class each way: one leaf."""
    return ("big,y\n" + "".join(f"{10**30 + i},yes\n" for i in range(200))).encode()


HOSTILE_NAMES = ("wide", "high_cardinality", "huge_arff", "one_row", "identical_rows", "huge_integers")


def hostile_files(seed: int = 0, scale: float = 1.0) -> dict[str, Hostile]:
    """Every hostile file, drawn with `seed`; `scale` times the rows of the heavy ones."""
    rng = np.random.default_rng(seed)
    return {
        "wide": Hostile("wide.csv", wide(rng, round(WIDE_ROWS * scale)), "c45"),
        "high_cardinality": Hostile("codes.csv", high_cardinality(rng, round(HIGH_ROWS * scale)), "id3"),
        "huge_arff": Hostile("diagonal.arff", huge_arff(rng, round(ARFF_ROWS * scale)), "c45", "text/plain"),
        "one_row": Hostile("one_row.csv", one_row(), "id3"),
        "identical_rows": Hostile("same.csv", identical_rows(), "cart"),
        "huge_integers": Hostile("integers.csv", huge_integers(), "c45"),
    }
