"""Class colours of the drawings: one colour-blind-safe palette for the tree and the charts, and
node fills shaded by purity whose text stays readable.

The palette is Okabe & Ito's (2008, "Color Universal Design"): seven hues that people with any
common form of colour blindness still tell apart, then greys. A drawing never tells classes by
colour alone: their names or codes are written too. Contrast is WCAG 2.1's (success criterion
1.4.3: at least 4.5:1 for text), from its relative luminance.
"""

from __future__ import annotations

import functools

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#999999", "#555555")
TEXT = "#000000"
GREY = "#444444"  # node numbers and the text of undecided nodes: 9.7:1 on white
MIN_CONTRAST = 4.5
# A fill is a tint, never the full colour: a node's bar (full colours) stays visible on it.
MAX_TINT = 0.6


def class_colour(classes, cls) -> str:
    """The colour of class `cls` among `classes` (the palette in turn, again after its end)."""
    return PALETTE[list(classes).index(cls) % len(PALETTE)]


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of `#rrggbb`: sRGB channels linearised, weighted 0.2126,
    0.7152, 0.0722."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two colours, 1 to 21.

    >>> contrast("#000000", "#ffffff"), round(contrast(GREY, "#ffffff"), 1)
    (21.0, 9.7)
    """
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def tint(colour: str, alpha: float) -> str:
    """`colour` laid over white with opacity `alpha`, as scikit-learn's export_graphviz fills."""
    channels = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(round(alpha * c + (1 - alpha) * 255)):02x}" for c in channels)


def purity(weights) -> float:
    """How far a class distribution is from a tie, 0 (the two largest shares equal) to 1 (one
    class): scikit-learn's shading of `plot_tree(filled=True)`, (p1 - p2) / (1 - p2) for the two
    largest shares p1 >= p2.

    >>> purity([5, 9]), purity([7, 7]), purity([0, 4])
    (0.4444444444444444, 0.0, 1.0)
    """
    total = sum(weights)
    if total <= 0 or len(weights) < 2:
        return 0.0
    first, second = sorted(weights, reverse=True)[:2]
    return (first - second) / (total - second)


@functools.lru_cache(maxsize=64)
def strongest_tint(colour: str) -> float:
    """The largest opacity, at most MAX_TINT, at which black and grey text on `colour`'s tint
    keep a contrast of MIN_CONTRAST (a tint darkens as the opacity grows: bisection)."""
    def readable(alpha: float) -> bool:
        return min(contrast(tint(colour, alpha), text) for text in (TEXT, GREY)) >= MIN_CONTRAST

    if readable(MAX_TINT):
        return MAX_TINT
    low, high = 0.0, MAX_TINT
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if readable(middle) else (low, middle)
    return low


def tint_by_purity(colour: str, weights) -> str:
    """A node's fill: its class's colour, as strong as the node is pure, within a readable tint."""
    return tint(colour, min(purity(weights), strongest_tint(colour)))
