"""A table whose names, values, classes and file name are markup in every language the app writes
(issue 33): Markdown, LaTeX, HTML, links, spreadsheet formulas, JavaScript object keys. Shared by
the library, AppTest and browser tests, with the checks that read what was written.

Every URL is under example.invalid (RFC 2606: never resolves), so a browser that fetched one is
seen in its request log, not on the network.
"""

from __future__ import annotations

import re

import pandas as pd

LONG = "![l](http://example.invalid/long.png)" + "y" * 9_962  # a 10,000-character name: an image first
NAMES = {
    "latex": r"$\color{red}{x}$",
    "image": "![i](http://example.invalid/x.png)",
    "html": "<img src=x onerror=alert(1)>",
    "link": "[a](javascript:alert(1))",
    "url": "http://example.invalid",
    "formula": "=1+1",
    "at": "@attr",
    "bold": "**b**",
    "code": "`tick`",
    "long": LONG,
}
VALUES = [r"$\color{red}{v}$", "![v](http://example.invalid/v.png)", "<img src=v onerror=alert(2)>", "=1+1",
          "@attr", "http://example.invalid/v", "www.example.invalid", ":red[r] **v**", "`v`"]
# Plotly keyed its category axis by name in a plain object: these two classes drew no bar
CLASSES = ["__proto__", "constructor", "[c](http://example.invalid/c)", r"$\color{red}{c}$ <b>c</b>"]
TARGET = "class"
FILE_NAME = (r"![f](http://example.invalid/f.png) $\color{red}{f}$ <img src=f onerror=alert(3)> "
             "[l](http://example.invalid) **f**.csv")
ROWS = 36


def frame() -> pd.DataFrame:
    """ROWS rows: categorical columns of hostile values, numeric columns of negative numbers (which
    a CSV keeps as numbers), and a class column that no attribute decides alone (the tree grows)."""
    rows = []
    for i in range(ROWS):
        rows.append({
            NAMES["latex"]: VALUES[i % len(VALUES)],
            NAMES["image"]: i % 7 - 3,
            NAMES["html"]: VALUES[(i // 2) % len(VALUES)],
            NAMES["link"]: ["**b**", "`tick`", "[a](javascript:alert(1))"][i % 3],
            NAMES["url"]: ["http://example.invalid", "-2+3", "+1"][(i // 3) % 3],
            NAMES["formula"]: i * 1.5,
            NAMES["at"]: ["=1+1", "@attr"][i % 2],
            NAMES["bold"]: i % 4,
            NAMES["code"]: LONG if i % 2 else "short",
            NAMES["long"]: i % 5,
            TARGET: CLASSES[(i * 7 // 5) % len(CLASSES)],
        })
    return pd.DataFrame(rows)


def csv_bytes() -> bytes:
    return frame().to_csv(index=False).encode()


# Markdown as Streamlit renders it ------------------------------------------------------------

# CommonMark's backslash escapes (ASCII punctuation) and code spans: what they hold is read as text
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
# What would be markup, a fetched image or red LaTeX if it were left in the text
LIVE = ("![", "](", "<img", "<b>", "**b**", "**v**", "**f**", "__proto__", r"\color", ":red[", "`tick`")
# What Streamlit's renderer links even when escaped: GFM's autolinks, found in the text once the
# escapes are read (mdast-util-gfm-autolink-literal); only code spans keep them text
AUTOLINKS = ("http://", "https://", "www.")
_DISPLAYED_MATHS = re.compile(r"^\$\$\n(.*?)\n\$\$$", re.S | re.M)  # a formula block: KaTeX's, not Markdown's


def live_markup(markdown: str) -> list[str]:
    """The forms of LIVE left in `markdown` outside escapes and code spans, the AUTOLINKS outside
    code spans, and commands in its formula blocks: each would render."""
    formulas = [command for block in _DISPLAYED_MATHS.findall(markdown) for command in live_latex(block)]
    # an escaped character as a private-use one, so that neither a form nor a code span sees it
    held = _ESCAPED.sub(lambda m: chr(0xE000 + ord(m.group(1))), _DISPLAYED_MATHS.sub("\x00", markdown))
    text = _CODE_SPAN.sub("\x00", held)
    read = re.sub("[\ue000-\ue07f]", lambda m: chr(ord(m.group()) - 0xE000), text)
    return formulas + [form for form in LIVE if form in text] + [form for form in AUTOLINKS if form in read.lower()]


def live_latex(latex: str) -> list[str]:
    r"""Commands from the hostile names that a formula would run (a name belongs in \text{...},
    its backslash written \textbackslash{})."""
    return [command for command in (r"\color", r"\href", r"\url", r"\includegraphics") if command in latex]


# Markdown documents, as a renderer without maths (and one with) reads them --------------------

def rendered(markdown: str, maths: bool) -> str:
    """The HTML markdown-it makes of a document: GFM's tables, strikethrough and autolinks, raw
    HTML allowed (as most viewers do); with `maths`, $...$ and $$...$$ as KaTeX's input."""
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("gfm-like", {"linkify": True, "html": True})
    if maths:
        from mdit_py_plugins.dollarmath import dollarmath_plugin

        renderer.use(dollarmath_plugin)
    return renderer.render(markdown)


_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>")


def live_html(html: str, allowed: frozenset[str]) -> list[str]:
    """Tags of `html` outside `allowed` (the document's own), and any tag whose attributes name
    example.invalid or run script: what a name from the file made."""
    found = []
    for match in _TAG.finditer(html):
        name, attributes = match.group(2).lower(), match.group(3)
        if name not in allowed or "example.invalid" in attributes or "javascript:" in attributes \
                or "onerror" in attributes:
            found.append(match.group(0)[:80])
    return found


def code_texts(html: str) -> list[str]:
    """What each <code> element of rendered HTML holds (a name written as inline code)."""
    return re.findall(r"<code>(.*?)</code>", html, flags=re.S)
