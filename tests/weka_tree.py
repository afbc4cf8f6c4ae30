"""Pure-Python helpers to compare dtlearn trees with stored Weka text output.

No Java is needed: the Weka outputs are stored under ``tests/fixtures/weka/``
(see the README there).

Canonical tree structure (what both converters return)::

    leaf:     {"leaf": "<class>", "n": float | None, "errors": float | None}
    internal: {"attribute": "<name>", "branches": {branch_key: subtree, ...}}

``branch_key`` is ``"= value"`` for a nominal test (``"!= value"`` for the
other side of Weka's binary nominal split ``-B``), ``"<= 83"`` / ``"> 83"`` for
a numeric threshold (the number kept as the string Weka printed), and
``"in [a, b]"`` for a dtlearn subset split.

``n`` is the weight of training instances at the leaf and ``errors`` the
weight of those not of the predicted class: J48 prints both as
``(n/errors)`` (``(n)`` when errors is 0); Id3 prints neither, so they are
None there. Id3 prints ``null`` for an empty leaf, which is kept as the class
``"null"``.

>>> t = parse_weka_tree("a <= 1.5: x (3.0)\\na > 1.5: y (2.0/1.0)")
>>> t["attribute"], sorted(t["branches"])
('a', ['<= 1.5', '> 1.5'])
>>> t["branches"]["> 1.5"]
{'leaf': 'y', 'n': 2.0, 'errors': 1.0}
"""

from __future__ import annotations

import math
import re

__all__ = [
    "parse_weka_tree",
    "canonical_from_dtlearn",
    "trees_equal",
    "split_key",
    "threshold_of",
    "threshold_matches",
    "format_threshold",
    "WEKA_THRESHOLD_DIGITS",
    "WEKA_WEIGHT_DIGITS",
]

# J48 prints split points with weka.core.Utils.doubleToString(x, 6) and leaf
# weights with doubleToString(x, 2); both drop trailing zeros ("75", "0.36",
# "3.4"), so a printed "75" means "75 rounded to 6 decimals", not "to 0".
WEKA_THRESHOLD_DIGITS = 6
WEKA_WEIGHT_DIGITS = 2

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|NaN|-?Infinity"
_NUMERIC_TEST = re.compile(rf"^(?P<attr>.+?) (?P<op><=|>|<|>=) (?P<num>{_NUM})$")
_J48_LEAF = re.compile(rf"^(?P<head>.*): (?P<cls>.*) \((?P<n>{_NUM})(?:/(?P<err>{_NUM}))?\)$")
_INDENT = re.compile(r"^((?:\|[ \t]*)*)(.*)$")
_HEADERS = re.compile(r"^(?:Id3|J48 .*tree.*|-+)\s*$")
_FOOTERS = re.compile(r"^(?:Number of Leaves|Size of the tree|Time taken|=== )")


# --------------------------------------------------------------------------
# parsing Weka's text


def _tree_lines(text: str) -> list[str]:
    """The lines of the model text: the whole output or just the tree."""
    lines = text.replace("\r\n", "\n").split("\n")
    start = 0
    for i, line in enumerate(lines):
        s = line.strip()
        if s == "Id3" or re.match(r"^J48 .*tree", s):
            start = i + 1
            if start < len(lines) and re.match(r"^-+\s*$", lines[start]):
                start += 1
            break
    out: list[str] = []
    for line in lines[start:]:
        s = line.rstrip()
        if not s.strip():
            if out:
                break  # the tree is one block of non-empty lines
            continue
        if _FOOTERS.match(s.strip()):
            break
        if s.startswith("Options:") or (not out and _HEADERS.match(s.strip())):
            continue
        out.append(s)
    if not out:
        raise ValueError("no Weka tree found in text")
    return out


def _split_leaf(rest: str) -> tuple[str, dict | None]:
    """Split 'head: leaf' into (head, leaf dict) or (rest, None)."""
    m = _J48_LEAF.match(rest)
    if m:
        err = m.group("err")
        leaf = {"leaf": m.group("cls"), "n": float(m.group("n")), "errors": float(err) if err else 0.0}
        return m.group("head"), leaf
    if ": " in rest or rest.startswith(":"):
        head, _, cls = rest.rpartition(": ") if ": " in rest else ("", "", rest[1:].strip())
        return head, {"leaf": cls, "n": None, "errors": None}
    return rest, None


def _parse_test(head: str) -> tuple[str, str]:
    """'outlook = sunny' -> ('outlook', '= sunny'); 'x <= 83' -> ('x', '<= 83')."""
    m = _NUMERIC_TEST.match(head)
    if m and " = " not in m.group("attr") and " != " not in m.group("attr"):
        return m.group("attr"), f"{m.group('op')} {m.group('num')}"
    for op in (" != ", " = "):
        i = head.find(op)
        if i > 0:
            return head[:i], f"{op.strip()} {head[i + len(op):]}"
    raise ValueError(f"cannot parse Weka test {head!r}")


def parse_weka_tree(text: str) -> dict:
    """Parse Weka's Id3 or J48 model text (or their whole console output).

    >>> parse_weka_tree(": no (5.0/2.0)")
    {'leaf': 'no', 'n': 5.0, 'errors': 2.0}
    >>> parse_weka_tree("Id3\\n\\n\\na = p: n\\na = r: null\\n")["branches"]["= r"]
    {'leaf': 'null', 'n': None, 'errors': None}
    """
    rows = []  # (depth, attribute, branch_key, leaf or None, line)
    lines = _tree_lines(text)
    if len(lines) == 1 and lines[0].lstrip().startswith(":"):
        _, leaf = _split_leaf(lines[0].strip())
        assert leaf is not None
        return leaf
    for line in lines:
        indent, rest = _INDENT.match(line).groups()
        depth = indent.count("|")
        head, leaf = _split_leaf(rest)
        attr, key = _parse_test(head)
        rows.append((depth, attr, key, leaf, line))

    pos = 0

    def node(depth: int) -> dict:
        nonlocal pos
        if pos >= len(rows) or rows[pos][0] != depth:
            got = rows[pos][4] if pos < len(rows) else "end of tree"
            raise ValueError(f"expected a test at depth {depth}, got {got!r}")
        attribute = rows[pos][1]
        branches: dict[str, dict] = {}
        while pos < len(rows) and rows[pos][0] == depth:
            d, attr, key, leaf, line = rows[pos]
            if attr != attribute:
                raise ValueError(f"mixed attributes {attribute!r} and {attr!r} at {line!r}")
            if key in branches:
                raise ValueError(f"duplicate branch {key!r} at {line!r}")
            pos += 1
            branches[key] = leaf if leaf is not None else node(depth + 1)
        if pos < len(rows) and rows[pos][0] > depth:
            raise ValueError(f"unexpected indentation at {rows[pos][4]!r}")
        return {"attribute": attribute, "branches": branches}

    tree = node(0)
    if pos != len(rows):
        raise ValueError(f"trailing lines from {rows[pos][4]!r}")
    return tree


# --------------------------------------------------------------------------
# numbers


def format_threshold(x: float) -> str:
    """Shortest string of a float, without a trailing '.0': 83.0 -> '83'."""
    s = repr(float(x))
    return s[:-2] if s.endswith(".0") else s


def split_key(key: str) -> tuple[str, str]:
    """'<= 83' -> ('<=', '83'); '= sunny' -> ('=', 'sunny')."""
    op, _, rest = key.partition(" ")
    return op, rest


def threshold_of(key: str) -> float | None:
    """The number of a numeric branch key ('<= 83' -> 83.0), else None."""
    op, rest = split_key(key)
    if op in ("<=", ">", "<", ">="):
        try:
            return float(rest)
        except ValueError:
            return None
    return None


def _decimals(s: str) -> int:
    mant, _, exp = s.lower().partition("e")
    d = len(mant.partition(".")[2])
    return max(0, d - int(exp)) if exp else d


def threshold_matches(a: str | float, b: str | float, tol: float = 1e-6,
                      digits: int | None = WEKA_THRESHOLD_DIGITS) -> bool:
    """Whether two thresholds agree, allowing for Weka's rounding.

    A string is taken as printed: it stands for any value that rounds to it at
    ``max(its decimals, digits)`` decimals (Weka prints ``doubleToString(x, 6)``
    with trailing zeros dropped, so "75" means 75 +- 5e-7). With
    ``digits=None`` only the printed decimals count ("75" means 75 +- 0.5).
    ``tol`` is added on top.

    >>> threshold_matches("0.36", 0.36000000001)
    True
    >>> threshold_matches("75", 75.4), threshold_matches("75", 75.4, digits=None)
    (False, True)
    """
    slack = tol
    for v in (a, b):
        if isinstance(v, str):
            d = _decimals(v)
            if digits is not None:
                d = max(d, digits)
            slack += 0.5 * 10.0 ** (-d)
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return False
    return x == y or abs(x - y) <= slack


def _weight_matches(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol + 0.5 * 10.0 ** (-WEKA_WEIGHT_DIGITS)


# --------------------------------------------------------------------------
# dtlearn -> canonical


def canonical_from_dtlearn(tree_dict: dict, classes: list[str] | None = None) -> dict:
    """Convert dtlearn's ``Tree.to_dict()["root"]`` (or the whole
    ``to_dict()``, which also gives the class order) to the canonical form."""
    if "root" in tree_dict and "id" not in tree_dict:
        classes = tree_dict.get("classes", classes)
        tree_dict = tree_dict["root"]
    return _canon(tree_dict, classes)


def _canon(node: dict, classes: list[str] | None) -> dict:
    test = node.get("test")
    children = node.get("children") or []
    if test is None or not children:
        n = node.get("n")
        weights = node.get("class_weights")
        errors = None
        if n is not None and weights is not None:
            pred = str(node.get("prediction"))
            names = [str(c) for c in classes] if classes is not None else None
            if names is not None and pred in names:
                errors = float(n) - float(weights[names.index(pred)])
            else:
                errors = float(n) - float(max(weights, default=0.0))
            errors = max(0.0, errors)
        return {"leaf": str(node.get("prediction")), "n": None if n is None else float(n), "errors": errors}
    kind = test["kind"]
    attribute = str(test["attribute"])
    if kind == "multiway":
        keys = [f"= {v}" for v in test["values"]]
    elif kind == "threshold":
        t = format_threshold(test["threshold"])
        keys = [f"<= {t}", f"> {t}"]
    elif kind == "subset":
        keys = [
            "in [" + ", ".join(sorted(str(v) for v in test["left"])) + "]",
            "in [" + ", ".join(sorted(str(v) for v in test["right"])) + "]",
        ]
    else:
        raise ValueError(f"unknown test kind {kind!r}")
    if len(keys) != len(children):
        raise ValueError(f"node {node.get('id')}: {len(keys)} branches but {len(children)} children")
    return {"attribute": attribute, "branches": {k: _canon(c, classes) for k, c in zip(keys, children)}}


# --------------------------------------------------------------------------
# comparison


def _describe(t: dict) -> str:
    if "leaf" in t:
        errors = "" if t.get("errors") is None else f", errors={t['errors']:g}"
        extra = "" if t.get("n") is None else f" (n={t['n']:g}{errors})"
        return f"leaf {t['leaf']!r}{extra}"
    return f"test on {t['attribute']!r} with branches {list(t['branches'])}"


def _pair_branches(ka: list[str], kb: list[str], tol: float, digits: int | None):
    """Match branch keys of two nodes; numeric keys by value. Returns
    (pairs, unmatched_a, unmatched_b)."""
    pairs, rest_b = [], list(kb)
    unmatched_a = []
    for k in ka:
        if k in rest_b:
            pairs.append((k, k))
            rest_b.remove(k)
            continue
        op, _ = split_key(k)
        ta = threshold_of(k)
        hit = None
        if ta is not None:
            for k2 in rest_b:
                op2, _ = split_key(k2)
                if op2 == op and threshold_of(k2) is not None and threshold_matches(
                    split_key(k)[1], split_key(k2)[1], tol, digits
                ):
                    hit = k2
                    break
        if hit is None:
            unmatched_a.append(k)
        else:
            pairs.append((k, hit))
            rest_b.remove(hit)
    return pairs, unmatched_a, rest_b


def _is_empty_null(x: dict, other: dict) -> bool:
    """Id3's ``null`` leaf (no training instances) matches an empty leaf of any class."""
    return x["leaf"] == "null" and x.get("n") is None and (other.get("n") in (None, 0, 0.0) or other["leaf"] == "null")


def trees_equal(a: dict, b: dict, tol: float = 1e-6, digits: int | None = WEKA_THRESHOLD_DIGITS,
                path: str = "root") -> tuple[bool, str]:
    """Compare two canonical trees; return (True, "") or (False, first difference).

    Attributes and nominal branch values must match exactly (branch order is
    ignored); numeric thresholds match within Weka's printing precision (see
    ``threshold_matches``); leaf classes must match, except that Id3's
    ``"null"`` leaf (an empty branch) matches a leaf of any class whose ``n`` is
    0 (or unknown); a leaf's ``n`` and
    ``errors`` are compared (within Weka's 2-decimal printing) only when both
    trees have them.
    """
    a_leaf, b_leaf = "leaf" in a, "leaf" in b
    if a_leaf != b_leaf:
        return False, f"at {path}: {_describe(a)} vs {_describe(b)}"
    if a_leaf:
        if _is_empty_null(a, b) or _is_empty_null(b, a):
            return True, ""
        if str(a["leaf"]) != str(b["leaf"]):
            return False, f"at {path}: leaf class {a['leaf']!r} vs {b['leaf']!r} ({_describe(a)} vs {_describe(b)})"
        for field in ("n", "errors"):
            va, vb = a.get(field), b.get(field)
            if va is not None and vb is not None and not _weight_matches(va, vb, tol):
                return False, f"at {path}: leaf {field} {va:g} vs {vb:g} ({_describe(a)} vs {_describe(b)})"
        return True, ""
    if a["attribute"] != b["attribute"]:
        return False, f"at {path}: {_describe(a)} vs {_describe(b)}"
    pairs, only_a, only_b = _pair_branches(list(a["branches"]), list(b["branches"]), tol, digits)
    if only_a or only_b:
        return False, (
            f"at {path}: branches of {a['attribute']!r} differ: only in first {only_a}, only in second {only_b}"
        )
    for ka, kb in pairs:
        sub = f"{path} / {a['attribute']} {ka}" + ("" if ka == kb else f" (~ {kb})")
        ok, msg = trees_equal(a["branches"][ka], b["branches"][kb], tol, digits, sub)
        if not ok:
            return False, msg
    return True, ""


def render(t: dict, indent: str = "|   ") -> str:
    """Canonical tree as Weka-like text (for assertion messages)."""
    if "leaf" in t:
        return ": " + _leaf_text(t)
    lines: list[str] = []
    _render(t, 0, indent, lines)
    return "\n".join(lines)


def _leaf_text(t: dict) -> str:
    s = str(t["leaf"])
    if t.get("n") is not None:
        s += f" ({t['n']:.2f}" + (f"/{t['errors']:.2f}" if t.get("errors") else "") + ")"
    return s


def _render(t: dict, depth: int, indent: str, lines: list[str]) -> None:
    for key, child in t["branches"].items():
        head = indent * depth + f"{t['attribute']} {key}"
        if "leaf" in child:
            lines.append(f"{head}: {_leaf_text(child)}")
        else:
            lines.append(head)
            _render(child, depth + 1, indent, lines)
