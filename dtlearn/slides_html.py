"""A deck of slides (`slides.deck`) as one HTML file that a browser shows offline, driven by a clicker.

Everything is inside the file: the trees as inline SVG (laid out by `dot` here, at the scale the
projector's rule chose), the formulas as MathML (`mathml`: browsers draw it themselves), the
style and a small script. Nothing is fetched, so the deck works in a lecture hall without a
network. A clicker sends Page Down / Page Up (some send the arrows, or B or . to blank the
screen); Home and End go to the first and last slide, and the address keeps the slide's number
(#3), so a reload stays on it. Each slide is a 1280x720 box scaled to the window.

Every name and value from a file is HTML-escaped here; `dot` writes the SVG's text XML-escaped.
"""

from __future__ import annotations

import html

from . import mathml
from .slides import FRAME_PX, Deck, Frame

KEYS = "Page Down, →, Space: next · Page Up, ←: back · Home, End: first, last · B or .: blank screen"


def _x(value) -> str:
    return html.escape(str(value), quote=True)


def to_html(deck: Deck) -> str:
    """The deck as one self-contained HTML document."""
    slides = "\n".join(_slide(frame, i + 1, len(deck.frames), deck) for i, frame in enumerate(deck.frames))
    width, height = FRAME_PX
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_x(deck.title)}</title>\n<style>{_CSS % {'w': width, 'h': height}}</style>\n</head>\n<body>\n"
            f'<main id="deck" aria-roledescription="slide deck" aria-label="{_x(deck.title)}">\n{slides}\n'
            f'<div id="counter" aria-live="polite"></div>\n</main>\n<div id="blank" hidden></div>\n'
            f"<script>{_JS % {'w': width, 'h': height}}</script>\n</body>\n</html>\n")


def _slide(frame: Frame, number: int, total: int, deck: Deck) -> str:
    head = (f'<section class="slide {frame.kind}" data-kind="{frame.kind}" data-step="{frame.step}" '
            f'aria-roledescription="slide" aria-label="{number} of {total}"{"" if number == 1 else " hidden"}>')
    if frame.kind == "title":
        source = f'<p class="source">{_x(deck.source)}</p>' if deck.source else ""
        steps = f"step {deck.first}" if deck.first == deck.last else f"steps {deck.first} to {deck.last}"
        body = (f"<h1>{_x(frame.heading)}</h1><p class=\"subtitle\">The induction, {steps}, one decision a "
                f"slide.</p>{source}<p class=\"keys\">{_x(KEYS)}</p>")
    else:
        body = f"<h2>{_x(frame.heading)}</h2>"
        if frame.verdict:
            body += f'<p class="decision {_x(frame.action)}"><b>{_x(frame.verdict)}</b> {_x(frame.decision)}</p>'
        body += _content(frame)
    return head + body + "</section>"


def _content(frame: Frame) -> str:
    if frame.kind == "step":
        return f'<div class="tree">{_tree(frame)}</div>'
    if frame.kind == "table":
        return f'<div class="fit"><div class="fit-inner">{_table(frame.table)}</div></div>'
    parts = []
    for title, lines in frame.sections:
        parts.append(f"<h3>{_x(title)}</h3>" + "".join(mathml.to_mathml(line) for line in lines))
    return f'<div class="fit"><div class="fit-inner formulas">{"".join(parts)}</div></div>'


def _tree(frame: Frame) -> str:
    drawn = frame.tree
    if drawn is None or drawn.laid is None:  # no `dot` here: the DOT source, for a reader to lay out
        return '<pre class="no-dot">' + _x(drawn.dot if drawn else "") + "</pre>"
    return drawn.laid.svg(drawn.scale).replace("<svg ", '<svg role="img" aria-label="decision tree" ', 1)


def _table(table) -> str:
    head = "".join(f'<th scope="col">{_x(c)}</th>' for c in table.header)
    rows = []
    for i, row in enumerate(table.rows):
        cells = f"<th scope=\"row\">{_x(row[0])}</th>" + "".join(f"<td>{_x(c)}</td>" for c in row[1:])
        mark = ' class="chosen"' if i == table.chosen else ""
        rows.append(f"<tr{mark}>{cells}</tr>")
    note = f'<p class="note">{_x(table.note)}.</p>' if table.note else ""
    return f"{note}<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


_CSS = """
html, body { margin: 0; height: 100%%; background: #000; overflow: hidden; }
body { font-family: "Source Sans 3", "Source Sans Pro", "Helvetica Neue", Arial, sans-serif; color: #141312; }
#deck { position: absolute; left: 50%%; top: 50%%; width: %(w)dpx; height: %(h)dpx; background: #fff;
        transform-origin: center center; transform: translate(-50%%, -50%%); overflow: hidden; }
.slide { position: absolute; inset: 0; box-sizing: border-box; padding: 20px 32px 36px; display: flex;
         flex-direction: column; }
.slide[hidden] { display: none; }
.slide.title { justify-content: center; padding: 60px 96px; }
h1 { font-size: 46px; line-height: 1.15; margin: 0 0 24px; }
h2 { font-size: 30px; line-height: 1.2; margin: 0 0 10px; }
h3 { font-size: 22px; margin: 10px 0 2px; }
.subtitle { font-size: 28px; margin: 0 0 18px; }
.source { font-size: 20px; color: #3d3b38; margin: 0 0 36px; }
.keys { font-size: 18px; color: #3d3b38; }
.decision { font-size: 21px; line-height: 1.35; margin: 0 0 8px; padding: 8px 14px; border-radius: 6px;
            background: #e8f1fb; color: #0b3d6e; }
.decision.split { background: #e6f4ea; color: #0f4d21; }
.tree { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; }
.tree svg { display: block; }
.no-dot { font-size: 14px; overflow: hidden; }
.fit { flex: 1; min-height: 0; overflow: hidden; }
.fit-inner { transform-origin: top left; width: max-content; max-width: none; }
.formulas math { font-size: 26px; margin: 4px 0 8px; }
table { border-collapse: collapse; font-size: 24px; }
th, td { padding: 6px 16px; border-bottom: 1px solid #c9c6c2; text-align: right; }
thead th { border-bottom: 2px solid #141312; text-align: right; }
th[scope="row"], thead th:first-child { text-align: left; font-weight: normal; }
tr.chosen th, tr.chosen td { font-weight: bold; background: #e6f4ea; }
.note { font-size: 18px; color: #3d3b38; margin: 0 0 6px; }
#counter { position: absolute; right: 20px; bottom: 8px; font-size: 16px; color: #3d3b38; }
#blank { position: fixed; inset: 0; background: #000; }
"""

# The deck's script: no network, no storage; it reads keys and the address's #number only.
_JS = """
(() => {
  const deck = document.getElementById("deck"), counter = document.getElementById("counter");
  const blank = document.getElementById("blank");
  const slides = Array.from(document.querySelectorAll(".slide"));
  let at = 0;
  const numbered = () => {
    const n = Number.parseInt(location.hash.slice(1), 10);
    return Number.isInteger(n) && n >= 1 && n <= slides.length ? n - 1 : 0;
  };
  const scale = () => {
    const s = Math.min(window.innerWidth / %(w)d, window.innerHeight / %(h)d);
    deck.style.transform = "translate(-50%%, -50%%) scale(" + s + ")";
  };
  const fit = (slide) => {  // a table or formulas taller or wider than its box: drawn smaller to fit
    slide.querySelectorAll(".fit").forEach((box) => {
      const inner = box.firstElementChild;
      inner.style.transform = "";
      const s = Math.min(1, box.clientWidth / inner.scrollWidth, box.clientHeight / inner.scrollHeight);
      if (s < 1) inner.style.transform = "scale(" + s + ")";
    });
  };
  const show = (i) => {
    at = Math.max(0, Math.min(slides.length - 1, i));
    slides.forEach((slide, j) => { slide.hidden = j !== at; });
    counter.textContent = (at + 1) + " / " + slides.length;
    fit(slides[at]);
    try { history.replaceState(null, "", "#" + (at + 1)); } catch (e) { /* an address that cannot change */ }
  };
  const NEXT = ["PageDown", "ArrowRight", "ArrowDown", " ", "Enter", "n"];
  const BACK = ["PageUp", "ArrowLeft", "ArrowUp", "Backspace", "p"];
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (NEXT.includes(event.key)) show(at + 1);
    else if (BACK.includes(event.key)) show(at - 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(slides.length - 1);
    else if (event.key === "b" || event.key === "B" || event.key === ".") blank.hidden = !blank.hidden;
    else return;
    event.preventDefault();
  });
  window.addEventListener("resize", scale);
  window.addEventListener("hashchange", () => { if (numbered() !== at) show(numbered()); });
  scale();
  show(numbered());
})();
"""
