"""A tree written out: Graphviz DOT, indented text, IF-THEN rules and a JSON-ready dict.

Every attribute name, value and class label reaching DOT goes through `html.escape` inside
an HTML-like label (`node_labels.escape`), so no name from a file can break or inject into the
DOT source. What a node's label, fill and the classes' legend look like is `node_labels`'s job;
here the tree's nodes and edges are put together. The DOT is written here, as the `graphviz`
package would write it, so the core needs no Graphviz at all; `to_graphviz` hands the same tree
to that package when it is installed (the app's extra).
"""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Collection

from . import budget
from .colours import GREY, PALETTE  # noqa: F401 (export.PALETTE: pages/charts.py)
from .formatting import label
from .node_labels import (EMPTY, SMALLEST_PT, TEXT_PT, class_codes, class_color, escape,  # noqa: F401
                          legend, node_fill, node_label)
from .shorten import INVISIBLE, LABEL_CHARS, LINE_CHARS, shown  # noqa: F401 (export.shown: the old name)

if TYPE_CHECKING:  # tree.py imports this module: no import back at run time
    from .tree import Node, Tree


def _graph(tree: Tree, visible: Collection[int] | None = None) -> dict:
    """The graph's attributes; for classes, their legend (once per drawing) as its label, as
    wide as the drawing's leaves side by side allow."""
    table = legend(tree, tree.n_leaves if visible is None else _drawn_leaves(tree, set(visible)))
    if table is None:
        return GRAPH
    return {**GRAPH, "label": f"<{table}>", "labelloc": "t", "labeljust": "l", "fontname": "Helvetica",
            "fontsize": str(TEXT_PT)}


def _drawn_leaves(tree: Tree, drawn_ids: set) -> int:
    """The drawn nodes with no drawn child (an id of no node of the tree is not drawn)."""
    count = 0
    for node_id in drawn_ids:
        try:
            node = tree.node(node_id)
        except KeyError:
            continue
        count += not any(child.id in drawn_ids for child in node.children)
    return count


GRAPH = {"nodesep": "0.25", "rankdir": "TB", "ranksep": "0.2"}
NODE = {"fontname": "Helvetica", "fontsize": str(TEXT_PT), "shape": "box", "style": "rounded,filled"}
EDGE = {"fontname": "Helvetica", "fontsize": str(TEXT_PT)}


# The current node: thicker than any other border, and a red that is in no class's colours.
HIGHLIGHT = {"color": "#d62728", "penwidth": "4"}
HIGHLIGHTS = {"color": "#1f77b4", "penwidth": "2.5"}  # several (an example's paths): blue


def _nodes(tree: Tree, highlight: int | None, digits: int | None = 3, numbers: bool = False,
           highlights: Collection[int] = (), visible: Collection[int] | None = None):
    """("node", (name, label, attributes)) for every node, ("edge", (tail, head, label)) for
    every edge, in the order the DOT lists them. With `visible`, only those nodes are drawn; a
    hidden child subtree of a drawn node is one grey box that counts its nodes and leaves, and a
    hidden root one box for the levels above the first drawn nodes."""
    highlights = set(highlights)
    drawn_ids = None if visible is None else set(visible)
    written_codes = [] if tree.is_regression else class_codes(tree)
    stack = [tree.root]
    if drawn_ids is not None and tree.root.id not in drawn_ids:  # the path above folded, from the root
        size, leaves, resumed = _folded(tree.root, drawn_ids)
        levels = resumed[0].depth if resumed else 0
        yield "node", (f"h{tree.root.id}", _fold_label(size, leaves, f"{levels} level{'s' if levels != 1 else ''} "
                                                       "above folded"), FOLDED)
        for drawn in resumed:
            yield "edge", (f"h{tree.root.id}", f"n{drawn.id}", f"<{escape(shown(drawn.branch))}>")
        stack = list(reversed(resumed))
    while stack:  # pre-order with its own stack: any depth
        node = stack.pop()
        budget.check_time(budget.DRAWING)  # a page's drawing of a 50,000-node view: within the page's time
        attributes = {"fillcolor": node_fill(tree, node)}
        if node.status == "pending":
            attributes.update(style="rounded,dashed,filled", color="gray40", fontcolor=GREY)
        if node.id in highlights:
            attributes.update(HIGHLIGHTS)
        if node.id == highlight:  # red over blue
            attributes.update(HIGHLIGHT)
        yield "node", (f"n{node.id}", node_label(tree, node, digits, numbers, written_codes), attributes)
        below = []  # the drawn nodes under this one, in order: its drawn children, and those a fold leads to
        hidden = []  # its hidden children with nothing drawn below them: one box for them all
        for child in node.children:
            if drawn_ids is None or child.id in drawn_ids:
                yield "edge", (f"n{node.id}", f"n{child.id}", f"<{escape(shown(child.branch))}>")
                below.append(child)
                continue
            size, leaves, resumed = _folded(child, drawn_ids)
            if not resumed:
                hidden.append((child, size, leaves))
                continue
            # a fold in the middle of a long path (neighbourhood) says how many levels it hides
            levels = resumed[0].depth - child.depth
            note = f"{levels} level{'s' if levels != 1 else ''} folded"
            yield "node", (f"h{child.id}", _fold_label(size, leaves, note), FOLDED)
            yield "edge", (f"n{node.id}", f"h{child.id}", f"<{escape(shown(child.branch))}>")
            for drawn in resumed:
                yield "edge", (f"h{child.id}", f"n{drawn.id}", f"<{escape(shown(drawn.branch))}>")
            below.extend(resumed)
        if hidden:
            yield from _fold_box(node, hidden)
        stack.extend(reversed(below))


def _fold_label(size: int, leaves: int, note: str) -> str:
    """A folded box's one line (a line less than a node: height is what a projector lacks)."""
    count = f"{size} node{'s' if size != 1 else ''}, {leaves} lea{'ves' if leaves != 1 else 'f'}"
    return f"<<I>{escape(note)}:</I> {escape(count)}>"


def _fold_box(node: Node, hidden: list):
    """One grey box for every hidden branch of a drawn node (a multiway split's forty folded
    branches side by side made a view around its root wider than any screen): its edge names the
    branch, or how many branches it holds."""
    first = hidden[0][0]
    size, leaves = sum(h[1] for h in hidden), sum(h[2] for h in hidden)
    if len(hidden) == 1:
        branch = shown(first.branch)
        note = "folded"
    else:
        branch = f"{len(hidden)} branches"
        note = f"{len(hidden)} folded"
    yield "node", (f"h{first.id}", _fold_label(size, leaves, note), FOLDED)
    yield "edge", (f"n{node.id}", f"h{first.id}", f"<{escape(branch)}>")


def _folded(top: Node, drawn_ids: set) -> tuple[int, int, list]:
    """The nodes and leaves of the subtree under `top` that are not drawn, and the drawn nodes
    found in it (pre-order: a path folded in the middle resumes at them)."""
    size = leaves = 0
    resumed = []
    stack = [top]
    while stack:
        node = stack.pop()
        if node.id in drawn_ids:
            resumed.append(node)
            continue
        if not size % 4096:
            budget.check_time(budget.DRAWING)
        size += 1
        leaves += not node.children
        stack.extend(reversed(node.children))
    return size, leaves, resumed


FOLDED = {"style": "rounded,dashed,filled", "color": "gray60", "fontcolor": GREY, "fillcolor": "#f4f4f4"}


PATH_LEVELS = 6  # ancestors drawn above a node (and the root); a longer path is folded in between


def neighbourhood(tree: Tree, node_id: int, depth: int = 2, path_levels: int = PATH_LEVELS,
                  siblings: bool = True, root: bool = True) -> frozenset[int]:
    """The nodes of a large tree's view around one node: its path from the root, the other
    children of every node on that path (`siblings`; else `to_dot` folds them into one box per
    node), and its subtree `depth` levels down. On a path of more than `path_levels` ancestors
    below the root, only the root and the last `path_levels` are kept (a deep tree's view stays a
    few dozen nodes: `to_dot` folds the levels between); without the `root`, only the last
    `path_levels` (`to_dot` folds the levels above into one box)."""
    parent = {}
    for count, node in enumerate(tree.root.walk()):  # every node: a 50,000-way split's too
        if not count % 4096:
            budget.check_time(budget.DRAWING)
        parent.update((child.id, node) for child in node.children)
    node = tree.node(node_id)
    ancestors = []
    while node.id in parent:
        node = parent[node.id]
        ancestors.append(node)
    if not root:
        ancestors = ancestors[:path_levels]
    elif len(ancestors) > path_levels + 1:
        ancestors = ancestors[:path_levels] + ancestors[-1:]
    ids = {node_id}
    for node in ancestors:
        ids.add(node.id)
        if siblings:
            ids.update(child.id for child in node.children)
    level = [tree.node(node_id)]
    for _ in range(depth):
        level = [child for n in level for child in n.children]
        ids.update(n.id for n in level)
    return frozenset(ids)


def top_levels(tree: Tree, max_nodes: int) -> frozenset[int]:
    """The nodes of a tree's first levels, as many whole levels as fit in `max_nodes` (the root
    at least): a tree too large to draw whole, drawn from the top."""
    ids, level = {tree.root.id}, [tree.root]
    while level:
        level = [child for node in level for child in node.children]
        if len(ids) + len(level) > max_nodes:
            break
        ids.update(node.id for node in level)
    return frozenset(ids)


_ID = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_NUMERAL = re.compile(r"^-?(\.[0-9]+|[0-9]+(\.[0-9]*)?)$")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}


def _quote(value: str) -> str:
    """A DOT attribute value: HTML-like labels, names and numbers as they are, else in quotes."""
    if value.startswith("<") and value.endswith(">") or _NUMERAL.match(value):
        return value
    if _ID.match(value) and value.lower() not in _KEYWORDS:
        return value
    return '"' + value.replace('"', '\\"') + '"'


def _attributes(attributes: dict, label: str | None = None) -> str:
    parts = [f"label={_quote(label)}"] if label is not None else []
    parts += [f"{key}={_quote(value)}" for key, value in sorted(attributes.items())]
    return "[" + " ".join(parts) + "]"


def to_dot(tree: Tree, highlight: int | None = None, digits: int | None = 3, numbers: bool = False,
           highlights: Collection[int] = (), visible: Collection[int] | None = None, legend: bool = True) -> str:
    """Graphviz DOT source of the tree (render with `dot -Tsvg` or st.graphviz_chart); `highlight`
    is a node id drawn with a thick red border, `highlights` node ids drawn with a thick blue one
    (the nodes an example reaches; `highlight` stays red); impurities get `digits` decimals (None:
    all); `numbers` writes each node's id ("node 7", as the steps name nodes) at the head of its
    label, beside its impurity; `visible` (e.g. `neighbourhood(tree, node_id)`) draws those
    nodes only, the rest folded; `legend=False` leaves the classes' legend out (a page that says
    it beside the drawing: `node_labels.legend_entries`). Every text is SMALLEST_PT points."""
    graph = _graph(tree, visible) if legend else GRAPH
    lines = ["digraph tree {", f"\tgraph {_attributes(graph)}", f"\tnode {_attributes(NODE)}",
             f"\tedge {_attributes(EDGE)}"]
    for kind, item in _nodes(tree, highlight, digits, numbers, highlights, visible):
        if kind == "node":
            name, label, attributes = item
            lines.append(f"\t{name} {_attributes(attributes, label)}")
        else:
            tail, head, label = item
            lines.append(f"\t{tail} -> {head} {_attributes({}, label)}")
    return "\n".join(lines) + "\n}\n"


def to_graphviz(tree: Tree, highlight: int | None = None, highlights: Collection[int] = ()):
    """The tree as a `graphviz.Digraph` (needs the graphviz package: the app's extra)."""
    import graphviz  # an optional package: the core writes DOT without it

    dot = graphviz.Digraph("tree", graph_attr=_graph(tree), node_attr=NODE, edge_attr=EDGE)
    for kind, item in _nodes(tree, highlight, highlights=highlights):
        if kind == "node":
            name, label, attributes = item
            dot.node(name, label, **attributes)
        else:
            tail, head, label = item
            dot.edge(tail, head, label=label)
    return dot


INDENT_LEVELS = 40  # deeper lines write their level as a number instead of more bars


def to_text(tree: Tree) -> str:
    """Indented text in the style of Weka's J48: `attribute = value: class (n/errors)`.
    Beyond 40 levels the bars give way to the level's number (`|40| x <= 3`), so that a very
    deep tree's text grows with its size, not with the square of its depth.

    >>> from dtlearn import fit, load_dataset
    >>> print(fit(load_dataset("tennis"), "id3").to_text().splitlines()[0])
    outlook = Sunny
    """
    root = tree.root
    if root.is_leaf:
        return f": {_leaf_text(root)}"
    lines: list[str] = []
    stack = _children_lines(root, 0)
    while stack:
        node, level, head = stack.pop()
        if node.is_leaf:
            lines.append(f"{head}: {_leaf_text(node)}")
        else:
            lines.append(head)
            stack.extend(_children_lines(node, level + 1))
    return "\n".join(lines)


def _children_lines(node: Node, level: int) -> list:
    """(child, level, its line's head) for each child, last first (a stack pops them in order)."""
    return [(node.children[b], level, _indent(level) + node.test.condition(b))
            for b in range(len(node.children) - 1, -1, -1)]


def _indent(level: int) -> str:
    return "|   " * level if level <= INDENT_LEVELS else f"|{level}|   "


def leaf_errors(node: Node) -> float:
    """Training errors of a leaf: the weight not of its class (0 for regression)."""
    return node.n - max(node.class_weights) if node.class_weights else 0.0


def _leaf_text(node: Node) -> str:
    if node.status == "pending":
        return "? (not decided yet)"
    errors = leaf_errors(node)
    n = label(round(node.n, 2))
    return f"{node.prediction} ({n}/{label(round(errors, 2))})" if errors > 1e-9 else f"{node.prediction} ({n})"


def rules(tree: Tree, limit: int | None = None) -> list[str]:
    """One IF-THEN rule per leaf, conditions from the root down; the tests of one numeric
    attribute on a path are merged into one interval (`3 < x <= 5`), and repeated tests of a
    categorical attribute into the last (narrowest) one, so a rule has one condition per attribute.
    `limit`: the first rules only (leaves left to right), the rest not written.

    >>> from dtlearn import fit, load_dataset
    >>> fit(load_dataset("tennis"), "id3").rules()[0]
    'IF outlook = Sunny AND humidity = High THEN play = No (3 rows)'
    """
    lines = []
    stack = [(tree.root, {})]
    while stack and (limit is None or len(lines) < limit):
        node, conditions = stack.pop()
        if node.is_leaf:
            condition = " AND ".join(_condition(a, c) for a, c in conditions.items()) or "TRUE"
            outcome = "?" if node.status == "pending" else node.prediction
            lines.append(f"IF {condition} THEN {tree.target} = {outcome} ({label(round(node.n, 2))} rows)")
            continue
        test = node.test
        for b in range(len(node.children) - 1, -1, -1):
            below = dict(conditions)
            if test.kind == "threshold":
                low, high = below[test.attribute] if isinstance(below.get(test.attribute), tuple) else (None, None)
                if b == 0:
                    high = test.threshold if high is None else min(high, test.threshold)
                else:
                    low = test.threshold if low is None else max(low, test.threshold)
                below[test.attribute] = (low, high)
            else:
                below[test.attribute] = test.condition(b)
            stack.append((node.children[b], below))
    return lines


def _condition(attribute: str, condition) -> str:
    if not isinstance(condition, tuple):
        return condition
    low, high = condition
    if low is None:
        return f"{attribute} <= {label(high)}"
    if high is None:
        return f"{attribute} > {label(low)}"
    return f"{label(low)} < {attribute} <= {label(high)}"


def to_dict(tree: Tree, nested: bool = True) -> dict:
    """The tree as plain dicts and lists, JSON-serialisable. `nested`: "root" is the root's dict,
    each node's "children" its children's dicts. A deep tree nests as deep, and Python's json
    and == recurse once per level (a 1,000-level chain passes their limit): with nested=False,
    "nodes" lists every node's dict in pre-order, its "children" their ids and "parent" its
    parent's (None at the root), at any depth."""
    whole = {
        "target": tree.target,
        "classes": list(tree.classes),
        "algorithm": tree.algorithm,
        "settings": tree.settings.to_dict(),
        "steps": len(tree.steps),
        "total_steps": tree.total_steps,
    }
    if nested:
        return {**whole, "root": _node_dicts(tree.root)}
    parent = {child.id: node.id for node in tree.root.walk() for child in node.children}
    return {**whole, "nodes": [{**_node_dict(node, [c.id for c in node.children]), "parent": parent.get(node.id)}
                               for node in tree.root.walk()]}


def _node_dict(node: Node, children: list) -> dict:
    return {
        "id": node.id,
        "depth": node.depth,
        "status": node.status,
        "n": node.n,
        "class_weights": list(node.class_weights),
        "prediction": node.prediction,
        "impurity": node.impurity,
        "leaf_reason": node.leaf_reason,
        "step": node.step,
        "test": node.test.to_dict() if node.test else None,
        "branches": list(node.test.branch_labels) if node.test else [],
        "children": children,
    }


def _node_dicts(root: Node) -> dict:
    made: dict[int, dict] = {}
    for node in reversed(list(root.walk())):
        made[node.id] = _node_dict(node, [made.pop(child.id) for child in node.children])
    return made[root.id]
