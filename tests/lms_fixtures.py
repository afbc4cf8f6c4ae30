"""Shared by the LMS export tests: a small class, a table whose names attack XML, HTML and Moodle's
Cloze syntax, and the root's numbers counted from a variant's CSV with pandas (the independent key)."""

from __future__ import annotations

import io
import math

import pandas as pd

import dtlearn
from dtlearn.variants import Constraints, class_set

# Names that would open or end a Cloze gap, a CDATA section, an XML element, an HTML tag or entity
HOSTILE_ATTRIBUTES = ("{1:NUMERICAL:=0.5}", "]]></text><x a='1'>", "a~b#c}d\\}", "<b>&amp;</b>")
HOSTILE_VALUES = (("{2:MC:=x}", "y~z"), ("]]>", "&lt;"), ("#1", "}~"), ("<i>", "&"))
HOSTILE_CLASSES = ("yes}~", "<no>")


def hostile_frame() -> pd.DataFrame:
    """16 rows in which the first attribute decides most of the class, the others little."""
    rows = []
    for i in range(16):
        row = {name: values[(i >> k) % 2] for k, (name, values) in enumerate(zip(HOSTILE_ATTRIBUTES, HOSTILE_VALUES))}
        row["{cls}"] = HOSTILE_CLASSES[(i % 2) if i % 5 else 1 - i % 2]
        rows.append(row)
    return pd.DataFrame(rows)


def hostile_class(students=("<s>{1:NM:=1}", "t"), seed: int = 3):
    data = dtlearn.read_csv(hostile_frame().to_csv(index=False).encode())
    return class_set(data, list(students), seed, Constraints("id3", steps=(1, 1)))


def tennis_class(algorithm: str = "id3", students=("ada", "bo", "cy"), steps=(1, 2), seed: int = 7):
    return class_set(dtlearn.load_dataset("tennis"), list(students), seed, Constraints(algorithm, steps=steps))


def _entropy(counts) -> float:
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts if c)


def root_numbers(variant) -> dict[str, float]:
    """The root's entropy and each attribute's information gain, counted from the variant's CSV
    with pandas (Quinlan 1986: Gain = Ent(D) - sum |D_v|/|D| Ent(D_v)); no dtlearn number in it."""
    frame = pd.read_csv(io.StringIO(variant.csv()), dtype=str, keep_default_na=False)
    target = frame.columns[-1]
    before = _entropy(frame[target].value_counts().tolist())
    numbers = {"node_entropy": before}
    for attribute in frame.columns[:-1]:
        after = sum(len(group) / len(frame) * _entropy(group[target].value_counts().tolist())
                    for _, group in frame.groupby(attribute))
        numbers[f"gain {attribute}"] = before - after
    return numbers
