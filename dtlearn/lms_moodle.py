"""A class's variants as Moodle XML: one question category, one Embedded answers (Cloze) question per student.

A quiz with a "random question" from the category gives each student one variant (as R's
`exams2moodle` does); a teacher who wants each student's own table shows it them by name (the
question's name holds the identifier). Each question holds the variant's table as HTML and the
sheet's questions (`lms_items.exercise`), each number a NUMERICAL gap and each choice a
MULTICHOICE gap, in Moodle's Cloze syntax (docs.moodle.org, "Embedded Answers (Cloze) question
type"): `{1:NUMERICAL:=value:tolerance#feedback~%0%wrong:tolerance#feedback}`.

What counts as right is the checker's rule as `lms_items` writes it: the exact value within
half a unit of the k-th decimal, then the textbook's value (`%100%`, no tolerance), then each
common mistake's value as a wrong answer (`%0%`) whose feedback names it; Moodle takes the
first answer that matches.

Escaping, in three layers (Moodle reads the XML, then the Cloze syntax, then HTML):
names and values from the file are HTML-escaped with `{ } ~` written as character references,
so no text can open or end a gap; a gap's option and feedback text, which Moodle's Cloze parser
decodes once more (`html_entity_decode`) before storing it as HTML, is escaped twice; the XML
writer escapes the whole once more.

>>> import dtlearn
>>> from dtlearn.variants import Constraints, class_set
>>> ada = class_set(dtlearn.load_dataset("tennis"), ["ada"], 7, Constraints("id3"))
>>> xml = moodle_xml(ada, "PlayTennis").decode()
>>> xml.count('<question type="cloze">'), "{1:NUMERICAL:=0.940285958670631:0.0005#" in xml
(1, True)
"""

from __future__ import annotations

import html
from typing import Sequence
from xml.sax.saxutils import escape as xml_escape

from .data import DataError
from .lms_items import Blank, Exercise, exercise

__all__ = ["category_path", "cloze_text", "gap", "moodle_xml", "number"]

_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;", "~": "&#126;"})


def html_text(text) -> str:
    """Text as HTML: & < > " ' escaped, and { } ~ as character references (no Cloze gap can
    start or end in it).

    >>> html_text("a<b {1:NM:=1}")
    'a&lt;b &#123;1:NM:=1&#125;'
    """
    return html.escape(str(text)).translate(_BRACES)


def _in_gap(text) -> str:
    """Text inside a gap (an option or a feedback): Moodle decodes it once before using it as
    HTML, so the HTML is escaped once more; a # then always follows an &amp;, which Moodle's
    Cloze parser reads as text, not as the start of a feedback."""
    return html_text(text).replace("&", "&amp;")


def number(value: float) -> str:
    """A number as a Cloze gap writes it: decimal point, no exponent, up to 15 decimals.

    >>> number(0.0005), number(-10.5), number(2.0)
    ('0.0005', '-10.5', '2')
    """
    text = f"{float(value):.15f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def gap(blank: Blank) -> str:
    """One blank in Cloze syntax: NUMERICAL with its answers, or MULTICHOICE over its choices."""
    if blank.choices:
        options = [("=" if option == blank.exact else "") + _in_gap(option) for option in blank.choices]
        return "{1:MULTICHOICE:" + "~".join(options) + "}"
    alternatives = []
    for i, answer in enumerate(blank.answers):
        mark = "=" if answer.right and i == 0 else "%100%" if answer.right else "%0%"
        alternatives.append(f"{mark}{number(answer.value)}:{number(answer.tolerance)}#{_in_gap(answer.feedback)}")
    return "{1:NUMERICAL:" + "~".join(alternatives) + "}"


def _table(ex: Exercise) -> str:
    head = "".join(f"<th>{html_text(c)}</th>" for c in ("#", *ex.columns))
    body = "".join("<tr><td>" + str(i) + "</td>" + "".join(f"<td>{html_text(v)}</td>" for v in row) + "</tr>"
                   for i, row in enumerate(ex.rows, 1))
    return f'<table border="1" cellpadding="3"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def cloze_text(ex: Exercise) -> str:
    """The question's text (HTML with its gaps): who it is for, the rules, the table, the steps."""
    out = [f"<p><b>Student:</b> {html_text(ex.student)} &nbsp; <b>Seed:</b> {ex.seed}</p>",
           f"<p>{html_text(ex.introduction)} Write numbers with a decimal point.</p>", _table(ex)]
    number_ = 1
    for part in ex.parts:
        out.append(f"<h4>{html_text(part.heading)}</h4><ol start=\"{number_}\">")
        for question, blanks in part.questions:
            gaps = "".join(f"<br>{html_text(b.label)}: {gap(b)}" for b in blanks)
            out.append(f"<li>{html_text(question)}{gaps}</li>")
            number_ += 1
        out.append("</ol>")
    return "".join(out)


def _key(ex: Exercise) -> str:
    """The general feedback Moodle shows after an attempt: each blank's key."""
    items = "".join(f"<li>Step {b.step}, {html_text(b.label)}: {html_text(b.shown)}</li>" for b in ex.blanks)
    return f"<p>The key (the candidate tables' numbers, {ex.digits} decimals):</p><ul>{items}</ul>"


def category_path(dataset: str, algorithm: str, steps: tuple[int, int], seed: int) -> str:
    """The category the questions go into, under the course's top category; a / in a name is
    doubled, as Moodle reads // as a slash within one category's name."""
    first, last = steps
    asked = f"step {first}" if first == last else f"steps {first}-{last}"
    name = f"{dataset} {algorithm} {asked} seed {seed}".replace("/", "//")
    return f"$course$/top/dtlearn/{name}"


def _text(tag: str, text: str, html_format: bool = True) -> str:
    fmt = ' format="html"' if html_format else ""
    return f"<{tag}{fmt}><text>{xml_escape(text)}</text></{tag}>"


def moodle_xml(variants: Sequence, dataset: str) -> bytes:
    """The class as a Moodle XML file (UTF-8): a category question, then one Cloze question
    per variant, named by the dataset and the student."""
    if not variants:
        raise DataError("The class has no variants.")
    first = variants[0]
    path = category_path(dataset, first.tree.algorithm, first.steps, first.seed)
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>",
           '<question type="category">', "<category><text>" + xml_escape(path) + "</text></category>",
           _text("info", "<p>" + html_text(f"One question per student: {dataset}, seed {first.seed}.") + "</p>"),
           "</question>"]
    for variant in variants:
        ex = exercise(variant, dataset)
        out += ['<question type="cloze">', _text("name", f"{dataset}: {variant.student}", html_format=False),
                _text("questiontext", cloze_text(ex)), _text("generalfeedback", _key(ex)),
                "<penalty>0.3333333</penalty>", "<hidden>0</hidden>", "</question>"]
    out.append("</quiz>")
    return ("\n".join(out) + "\n").encode("utf-8")
