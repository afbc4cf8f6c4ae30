r"""The LaTeX that `derivation` writes, as MathML: formulas a browser draws with no script and no network.

A slide deck must work offline, and KaTeX is a script and fonts from elsewhere; browsers draw
MathML Core themselves. This reads the small part of LaTeX the derivations use (fractions,
sub- and superscripts, \text and \mathrm names, Greek letters, relations, `aligned` and
`gathered` blocks), not LaTeX at large: a command it does not know is written as its name, so
nothing is lost silently. Every text, a name from a file included, leaves here XML-escaped.

>>> to_mathml(r"p = \tfrac{5}{14}")
'<math display="block"><mi>p</mi><mo>=</mo><mfrac displaystyle="false"><mn>5</mn><mn>14</mn></mfrac></math>'
>>> to_mathml(r"\text{<b>\&}", display=False)
'<math><mtext>&lt;b&gt;&amp;</mtext></math>'
"""

from __future__ import annotations

import html
import re

_TOKEN = re.compile(r"\\([A-Za-z]+)\s*|\\(.)|(\d+(?:\.\d+)?)|([A-Za-z])|(\s+)|(.)", re.S)
# text-mode spellings (derivation.escape, typeset.formula_line) and what they print
_TEXT_COMMANDS = {"textbackslash": "\\", "textasciicircum": "^", "textasciitilde": "~", "textless": "<",
                  "textgreater": ">", "lbrack": "[", "rbrack": "]", "char42": "*", "char96": "`"}
_TEXT_ESCAPE = re.compile(r"\\(textbackslash|textasciicircum|textasciitilde|textless|textgreater|lbrack|rbrack|"
                          r"char42|char96)(?:\{\})?|\\(.)", re.S)
_IDENTIFIERS = {"Delta": "Δ", "rho": "ρ", "alpha": "α", "beta": "β", "gamma": "γ", "sigma": "σ", "Sigma": "Σ",
                "pi": "π", "theta": "θ", "lambda": "λ", "mu": "μ", "ell": "ℓ", "infty": "∞", "dots": "…",
                "ldots": "…", "cdots": "⋯"}
_OPERATORS = {"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "times": "×", "cdot": "·",
              "in": "∈", "notin": "∉", "approx": "≈", "to": "→", "pm": "±", "mid": "|", "sum": "∑",
              "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "|": "‖", "%": "%", "$": "$", "&": "&",
              "#": "#", "_": "_"}
_SPACES = {"quad": "1em", "qquad": "2em", ",": "0.167em", ":": "0.222em", ";": "0.278em", " ": "0.333em",
           "!": "0em"}
_FUNCTIONS = ("log", "ln", "exp", "min", "max", "arg", "sin", "cos")
_SIZED = ("bigl", "bigr", "Bigl", "Bigr", "big", "Big", "left", "right")  # the delimiter after them, as it is
_ACCENTS = {"tilde": "~", "bar": "¯", "hat": "^", "overline": "¯"}


def _x(value: str) -> str:
    return html.escape(value, quote=False)


class _Reader:
    """A recursive reader over the tokens of one formula."""

    def __init__(self, latex: str):
        self.tokens = [m for m in _TOKEN.finditer(latex)]
        self.at = 0

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.at += 1
        return token

    def group_text(self) -> str:
        """The raw LaTeX of the next {...} group (or the next token), braces balanced."""
        token = self.take()
        if token is None:
            return ""
        if token.group() != "{":
            return token.group()
        depth, start = 1, token.end()
        while self.peek() is not None:
            token = self.take()
            if token.group(6) == "{":
                depth += 1
            elif token.group(6) == "}":
                depth -= 1
                if depth == 0:
                    return token.string[start:token.start()]
        return token.string[start:] if token else ""

    def row(self, stop=("}",)) -> list[str]:
        """Elements up to a closing brace, a column (&) or a line break (\\\\), or the end."""
        out: list[str] = []
        while (token := self.peek()) is not None:
            if token.group(6) in stop or token.group(2) == "\\" or token.group(1) == "end":
                break
            self.take()
            element = self.element(token)
            if element is None:
                continue
            if self._scripted():
                element = self.scripts(element)
            out.append(element)
            if token.group(1) in _FUNCTIONS:  # log₂ 5/14: a thin space before the argument
                out.append('<mspace width="0.167em"></mspace>')
        return out

    def _scripted(self) -> bool:
        token = self.peek()
        return token is not None and token.group(6) in ("_", "^")

    def scripts(self, base: str) -> str:
        sub = sup = None
        while self._scripted():
            mark = self.take().group(6)
            argument = self.argument()
            sub, sup = (argument, sup) if mark == "_" else (sub, argument)
        if sub is not None and sup is not None:
            return f"<msubsup>{base}{sub}{sup}</msubsup>"
        return f"<msub>{base}{sub}</msub>" if sub is not None else f"<msup>{base}{sup}</msup>"

    def argument(self) -> str:
        """One element or one {group}, as a single MathML element."""
        while (token := self.peek()) is not None and token.group(5):
            self.take()
        token = self.take()
        if token is None:
            return "<mrow></mrow>"
        if token.group(6) == "{":
            inner = self.row()
            self.take()  # the closing brace
            return inner[0] if len(inner) == 1 else "<mrow>" + "".join(inner) + "</mrow>"
        return self.element(token) or "<mrow></mrow>"

    def element(self, token) -> str | None:
        command, symbol, number, letter, space, other = token.groups()
        if space:
            return None
        if number:
            return f"<mn>{number}</mn>"
        if letter:
            return f"<mi>{letter}</mi>"
        if other == "{":
            inner = self.row()
            self.take()
            return "<mrow>" + "".join(inner) + "</mrow>"
        if other is not None:
            return _operator(other) if other not in "}&" else None
        if symbol is not None:
            if symbol in _SPACES:
                return f'<mspace width="{_SPACES[symbol]}"></mspace>'
            return f"<mo>{_x(_OPERATORS.get(symbol, symbol))}</mo>"
        return self.command(command)

    def command(self, name: str) -> str:
        if name in ("text", "textrm", "mbox"):
            return f"<mtext>{_x(text_of(self.group_text()))}</mtext>"
        if name in ("mathrm", "operatorname"):
            return f'<mi mathvariant="normal">{_x(text_of(self.group_text()))}</mi>'
        if name in ("frac", "tfrac", "dfrac"):
            style = ' displaystyle="false"' if name == "tfrac" else ""
            return f"<mfrac{style}>{self.argument()}{self.argument()}</mfrac>"
        if name in _ACCENTS:
            return f'<mover accent="true">{self.argument()}<mo>{_ACCENTS[name]}</mo></mover>'
        if name == "begin":
            return self.block(self.group_text())
        if name in _SIZED:
            token = self.take()
            delimiter = "" if token is None or token.group() == "." else (token.group(2) or token.group())
            if not delimiter:
                return "<mrow></mrow>"
            return f'<mo minsize="1.2em" maxsize="1.2em">{_x(_OPERATORS.get(delimiter, delimiter))}</mo>'

        if name in _SPACES:
            return f'<mspace width="{_SPACES[name]}"></mspace>'
        if name in _FUNCTIONS:
            return f"<mi>{name}</mi>"
        if name in _IDENTIFIERS:
            return f'<mi mathvariant="normal">{_IDENTIFIERS[name]}</mi>'
        if name in _OPERATORS:
            return f"<mo>{_OPERATORS[name]}</mo>"
        if name in _TEXT_COMMANDS:
            if self.peek() is not None and self.peek().group() == "{":
                self.group_text()  # the empty group after it
            return f"<mtext>{_x(_TEXT_COMMANDS[name])}</mtext>"
        return f"<mtext>\\{_x(name)}</mtext>"  # not a command the derivations use: said, not dropped

    def block(self, environment: str) -> str:
        """An aligned or gathered block: rows at \\\\, cells at & (each cell's own row)."""
        rows, cells = [], []
        while (token := self.peek()) is not None:
            if token.group(1) == "end":  # \end{...}: the block's end
                self.take()
                self.group_text()
                break
            cells.append(self.row(stop=("}", "&")))
            token = self.peek()
            if token is None or token.group(1) == "end":
                continue
            self.take()
            if token.group(2) == "\\":
                self._skip_spacing()
                rows.append(cells)
                cells = []
            elif token.group(6) == "}":  # a stray closing brace: the block ends with it
                break
        if cells:
            rows.append(cells)
        align = 'columnalign="right left"' if environment == "aligned" else 'columnalign="center"'
        body = "".join("<mtr>" + "".join(f"<mtd>{''.join(cell)}</mtd>" for cell in row) + "</mtr>" for row in rows)
        return f'<mtable {align} rowspacing="0.5em">{body}</mtable>'

    def _skip_spacing(self) -> None:
        """The [0.9em] after a line break."""
        token = self.peek()
        if token is not None and token.group() == "[":
            while (token := self.take()) is not None and token.group() != "]":
                pass


def _operator(character: str) -> str:
    """A character as an operator: - as a minus sign, brackets at their size, bars unspaced."""
    if character == "-":
        return "<mo>−</mo>"
    if character in "()[]":
        return f'<mo stretchy="false">{character}</mo>'
    if character == "|":
        return '<mo stretchy="false" lspace="0" rspace="0">|</mo>'
    return f"<mo>{_x(character)}</mo>"


def text_of(latex: str) -> str:
    r"""The characters a \text{...} argument prints (its escapes read back).

    >>> text_of(r"a\_b \textless{}c\textgreater{} 5\%")
    'a_b <c> 5%'
    """
    def read(m: re.Match) -> str:
        if m.group(1):
            return _TEXT_COMMANDS[m.group(1)]
        return {",": " ", " ": " "}.get(m.group(2), m.group(2))

    return _TEXT_ESCAPE.sub(read, latex)


def to_mathml(latex: str, display: bool = True) -> str:
    """One formula as a <math> element (display: a block of its own)."""
    reader = _Reader(latex)
    parts = []
    while reader.peek() is not None:
        parts += reader.row(stop=())
        if reader.peek() is not None:  # a line break or & outside a block: a new line in words
            reader.take()
    return ('<math display="block">' if display else "<math>") + "".join(parts) + "</math>"
