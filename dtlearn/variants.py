"""Variants of an exercise table, one per student: the same exercise on a table of their own.

A teacher who sets the PlayTennis exercise finds its answers in many public repositories. A
variant keeps the exercise and draws the table anew from the template (`variant_draw`: rows
redrawn, cells given other values, values relabelled, numbers moved, cells emptied), within
the teacher's `Constraints`: how many rows, attributes, classes and numeric attributes, the
share of missing values, the algorithm, the steps asked, the largest node to compute by hand,
and whether the tree keeps the template's shape.

Every variant is checked before it is kept (`variant_checks.problems`, reading the tree's own
candidate tables): the steps asked hold the template's number of splits, no node asked is
bigger than `max_node_rows`, no tie at the top within the grading tolerance
(`Constraints.tolerance`), the shape asked for, and none of the template's own numbers at a
step asked (a published solution never fits). A draw that fails is drawn again with the next
attempt number, a gentler one (fewer cells changed), up to `max_attempts`; then
`make_variant` raises DataError naming the check failed most often. An attempt's random
stream comes from SHA-256 of (seed, student, attempt): the seed and the student's identifier
reproduce the variant exactly, in any process, with the same dtlearn and numpy. The answer key
is the variant's tree, whose steps hold the candidate tables (`class_sheets` writes the
sheets and the key).

API (the sheets, LMS exports and a Teacher page build on these):

    Constraints(algorithm="id3", steps=(1, 1), rows=None, attributes=None, classes=None,
                numeric=None, missing=None, max_node_rows=None, same_shape=None, digits=3,
                tie_tolerance=None, settings=(), perturb=0.15, relabel=True, max_attempts=200)
    Constraints.tolerance -> float             # the least margin at the top (10**-digits)
    make_variant(template, student, seed, constraints) -> Variant
    iter_variants(template, students, seed, constraints) -> Iterator[Variant]   # one at a time
    class_set(template, students, seed, constraints) -> list[Variant]
    Variant: student, seed, attempt, data (Dataset), tree, steps (first, last), digits;
             .asked (the steps asked), .csv() (the table), .made(key, make) (made once per variant)
    student_ids(count) -> tuple[str, ...]      # "01", "02", ...
    template_tree(template, constraints) -> Tree
    problems(tree, constraints, template_tree) -> tuple[str, ...]   # codes of PROBLEMS, () when kept
    shape(tree) -> tuple                       # the topology, children sorted

>>> import dtlearn
>>> rules = Constraints("id3", steps=(1, 2), max_node_rows=14)
>>> tennis = dtlearn.load_dataset("tennis")
>>> ada = make_variant(tennis, "ada", 7, rules)
>>> ada.csv() == make_variant(tennis, "ada", 7, rules).csv(), ada.csv() != make_variant(tennis, "bo", 7, rules).csv()
(True, True)
>>> problems(ada.tree, rules, template_tree(tennis, rules)), [s.action for s in ada.asked]
((), ['split', 'split'])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator, Sequence, TypeVar

import numpy as np

from .api import fit
from .data import DataError, Dataset
from .settings import ALGORITHMS, make_settings
from .spreadsheet import to_csv
from .steps import GROWTH_ACTIONS
from .tree import Tree
from .variant_checks import PROBLEMS, problems, shape
from .variant_draw import Source, draw, stream

__all__ = ["PROBLEMS", "Constraints", "Variant", "class_set", "draw", "iter_variants", "make_variant", "problems",
           "shape", "stream", "student_ids", "template_tree"]

T = TypeVar("T")
DIGITS = 3  # the decimals a sheet asks for, as worksheets and grading write them by default
MAX_ID_CHARS = 64


@dataclass(frozen=True)
class Constraints:
    """What a teacher sets for a class's variants; hashable (a cache key). None: as the template.

    rows: (fewest, most) rows of a variant; attributes, classes: how many of the template's a
    variant keeps (drawn per variant); numeric: how many attributes stay numeric (the template's
    other numeric attributes kept become low / medium / high by its terciles); missing: the share
    of attribute cells left empty (at least; a template's own empty cells stay empty); steps:
    the growth steps asked (first, last); max_node_rows: the largest node asked; same_shape: True
    (the template's shape), False (another), None (either); digits: the decimals the sheet asks
    for; tie_tolerance: the least margin at the top (None: `tolerance`); settings: extra
    algorithm settings, (name, value) pairs or a dict; perturb: the share of attribute cells
    given another value; relabel: permute categorical values; max_attempts: draws per student.
    """

    algorithm: str = "id3"
    steps: tuple[int, int] = (1, 1)
    rows: tuple[int, int] | None = None
    attributes: int | None = None
    classes: int | None = None
    numeric: int | None = None
    missing: float | None = None
    max_node_rows: int | None = None
    same_shape: bool | None = None
    digits: int = DIGITS
    tie_tolerance: float | None = None
    settings: tuple[tuple[str, object], ...] = ()
    perturb: float = 0.15
    relabel: bool = True
    max_attempts: int = 200

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"Unknown algorithm '{self.algorithm}'. Choose one of: {', '.join(ALGORITHMS)}.")
        settings = self.settings.items() if isinstance(self.settings, dict) else self.settings
        object.__setattr__(self, "settings", tuple(sorted((str(k), v) for k, v in settings)))
        make_settings(self.algorithm, **dict(self.settings))  # a bad setting: its own message
        object.__setattr__(self, "steps", _pair(self.steps, "steps", low=1))
        if self.rows is not None:
            object.__setattr__(self, "rows", _pair(self.rows, "rows", low=2))
        for name, low in (("attributes", 1), ("classes", 2), ("numeric", 0), ("max_node_rows", 2),
                          ("max_attempts", 1)):
            value = getattr(self, name)
            if value is not None and (not _whole(value) or value < low):
                raise ValueError(f"{name} must be a whole number of at least {low}, not {value!r}.")
        if self.numeric is not None and self.attributes is not None and self.numeric > self.attributes:
            raise ValueError(f"numeric ({self.numeric}) cannot exceed attributes ({self.attributes}).")
        if not _whole(self.digits) or not 2 <= self.digits <= 6:
            raise ValueError(f"digits must be a whole number from 2 to 6 (grading needs 2), not {self.digits!r}.")
        for name, high in (("missing", 0.5), ("perturb", 0.5)):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, (int, float)) and 0 <= value <= high):
                raise ValueError(f"{name} must be a share from 0 to {high}, not {value!r}.")
        if self.tie_tolerance is not None and not (isinstance(self.tie_tolerance, (int, float))
                                                   and 0 <= self.tie_tolerance < 1):
            raise ValueError(f"tie_tolerance must be a number from 0 to 1, not {self.tie_tolerance!r}.")
        if self.same_shape not in (None, True, False):
            raise ValueError(f"same_shape must be True, False or None, not {self.same_shape!r}.")
        if self.rows and self.max_node_rows and self.steps[0] == 1 and self.rows[0] > self.max_node_rows:
            raise ValueError(f"Step 1 is the whole table: rows ({self.rows[0]} or more) cannot be at most "
                             f"max_node_rows ({self.max_node_rows}).")

    @property
    def tolerance(self) -> float:
        """The least margin at the top: `tie_tolerance`, else one unit in the last decimal asked
        for (10**-digits), the width of what grading reads as one written value."""
        return float(self.tie_tolerance) if self.tie_tolerance is not None else 10.0 ** -self.digits


def _whole(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _pair(value, name: str, low: int) -> tuple[int, int]:
    """(first, last), whole numbers with low <= first <= last; a single number is both."""
    pair = (value, value) if _whole(value) else tuple(value) if isinstance(value, (tuple, list)) else ()
    if len(pair) != 2 or not all(_whole(v) for v in pair) or not low <= pair[0] <= pair[1]:
        raise ValueError(f"{name} must be (first, last) whole numbers with {low} <= first <= last, not {value!r}.")
    return int(pair[0]), int(pair[1])


@dataclass(frozen=True, eq=False)
class Variant:
    """One student's variant: the table (`data`), its tree (whose steps hold the key's numbers),
    and what reproduces it: the student, the seed and the attempt that passed the checks."""

    student: str
    seed: int
    attempt: int
    data: Dataset
    tree: Tree
    steps: tuple[int, int]  # the growth steps asked, first..last
    digits: int = DIGITS
    _made: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def made(self, key: tuple, make: Callable[[], T]) -> T:
        """What `make` returns for this variant, made once per `key`: the sheet, the key and each
        LMS export read the same worksheet and exercise, and a class's make each over and over."""
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]

    @property
    def asked(self) -> tuple:
        """The growth steps asked, in order."""
        growth = [s for s in self.tree.steps if s.action in GROWTH_ACTIONS]
        return tuple(growth[self.steps[0] - 1:self.steps[1]])

    def csv(self) -> str:
        """The table as CSV: text cells inert in a spreadsheet, whole numbers written whole, an
        empty cell where a value is missing; read back (`read_csv`) it grows the same tree."""
        frame = self.data.frame.copy()
        for name, kind in self.data.kinds.items():
            values = frame[name]
            if kind == "numeric" and values.dropna().map(float.is_integer).all():
                frame[name] = values.astype("Int64")
        return to_csv(frame)


# --- making variants ------------------------------------------------------------------------

def template_tree(template: Dataset, constraints: Constraints) -> Tree:
    """The template's own tree under the constraints' algorithm and settings: the work and the
    shape a variant is compared with."""
    return fit(template, constraints.algorithm, **dict(constraints.settings))


def _checked_template(template: Dataset, constraints: Constraints) -> Tree:
    """The template's tree, after checking that the constraints fit the template (DataError)."""
    c = constraints
    attributes = template.attributes
    numeric = [a for a in attributes if template.kinds[a] == "numeric"]
    if c.attributes is not None and c.attributes > len(attributes):
        raise DataError(f"The template has {len(attributes)} attributes; a variant cannot keep {c.attributes}.")
    if c.classes is not None and c.classes > len(template.classes):
        raise DataError(f"The template has {len(template.classes)} classes; a variant cannot keep {c.classes}.")
    if c.numeric is not None and c.numeric > len(numeric):
        raise DataError(f"The template has {len(numeric)} numeric attributes; a variant cannot keep {c.numeric}.")
    reference = template_tree(template, c)
    if reference.is_regression:
        raise DataError("Variants are made for classification exercises; this table's target is a number.")
    if c.steps[1] > reference.growth_steps:
        raise DataError(f"The template's tree has {reference.growth_steps} growth steps; steps "
                        f"{c.steps[0]} to {c.steps[1]} cannot be asked.")
    return reference


def _student(student) -> str:
    text = str(student).strip()
    if not text or len(text) > MAX_ID_CHARS or any(ch < " " or ch == "\x7f" for ch in text):
        raise DataError(f"A student's identifier needs 1 to {MAX_ID_CHARS} characters on one line, not {student!r}.")
    return text


def make_variant(template: Dataset, student: str, seed: int, constraints: Constraints = Constraints()) -> Variant:
    """The variant of `student` in the class of `seed`: the first attempt whose table passes
    every check. DataError when none of `max_attempts` does, naming the check failed most."""
    reference = _checked_template(template, constraints)
    return _make(Source.of(template), _student(student), _seed(seed), constraints, reference)


def _seed(seed) -> int:
    if not _whole(seed) or seed < 0:
        raise DataError(f"The seed must be a whole number of at least 0, not {seed!r}.")
    return int(seed)


def _gentler(c: Constraints, attempt: int) -> Constraints:
    """The constraints of a later attempt: `perturb` halved every 10 attempts, down to a fifth,
    so that a check close to the template (its shape) is met sooner; `copy` keeps the numbers new."""
    return replace(c, perturb=c.perturb * max(0.2, 0.5 ** (attempt / 10)))


def _make(source: Source, student: str, seed: int, c: Constraints, reference: Tree) -> Variant:
    failed: Counter = Counter()
    settings = dict(c.settings)
    for attempt in range(c.max_attempts):
        data = draw(source, stream(seed, student, attempt), _gentler(c, attempt))
        try:
            tree = fit(data, c.algorithm, **settings)
        except (DataError, ValueError):
            failed["fit"] += 1
            continue
        found = problems(tree, c, reference)
        if not found:
            return Variant(student, seed, attempt, data, tree, c.steps, c.digits)
        failed.update(found)
    worst, times = failed.most_common(1)[0]
    raise DataError(f"No table for student {student!r} (seed {seed}) met the constraints in {c.max_attempts} "
                    f"attempts: most often {PROBLEMS[worst]} ({times} of {c.max_attempts}). Loosen that "
                    "constraint (or ask other steps).")


def student_ids(count: int) -> tuple[str, ...]:
    """Identifiers for a class of `count` students when no list is given: 01, 02, ... (padded
    so that they sort).

    >>> student_ids(3), student_ids(12)[-1]
    (('1', '2', '3'), '12')
    """
    if not _whole(count) or count < 1:
        raise DataError(f"The number of students must be a whole number of at least 1, not {count!r}.")
    width = len(str(count))
    return tuple(str(i).zfill(width) for i in range(1, count + 1))


def _ids(students: Sequence[str] | int) -> tuple[str, ...]:
    ids = student_ids(students) if _whole(students) else tuple(_student(s) for s in students)
    if not ids:
        raise DataError("The class has no students: give a number or a list of identifiers.")
    repeated = [s for s, n in Counter(ids).items() if n > 1]
    if repeated:
        raise DataError(f"Student identifiers must differ; {repeated[0]!r} appears more than once.")
    return ids


def iter_variants(template: Dataset, students: Sequence[str] | int, seed: int,
                  constraints: Constraints = Constraints()) -> Iterator[Variant]:
    """The class's variants one at a time (a page shows its progress), in the students' order.
    The constraints and identifiers are checked before the first is made."""
    ids, seed = _ids(students), _seed(seed)
    reference, source = _checked_template(template, constraints), Source.of(template)
    return (_make(source, student, seed, constraints, reference) for student in ids)


def class_set(template: Dataset, students: Sequence[str] | int, seed: int,
              constraints: Constraints = Constraints()) -> list[Variant]:
    """One variant per student (`students`: identifiers, or how many: `student_ids`)."""
    return list(iter_variants(template, students, seed, constraints))
