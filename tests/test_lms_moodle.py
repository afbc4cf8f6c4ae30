"""The Moodle XML export read back by readers the project did not write.

Moodle publishes no schema for its XML question format, and its own importer (PHP, needing a
Moodle site) cannot run here; the readers are `moodle-xml-parser` (PyPI, MIT: reads a Cloze
question's name and each gap's type, answers, fractions and feedback, as Moodle's syntax defines
them), lxml for the XML and lxml.html for the HTML a question shows. The key is checked against
the root's numbers counted from each variant's CSV with pandas (`lms_fixtures.root_numbers`), the
tolerance and the wrong answers against dtlearn's checker (`grading.grade`), which they restate.
"""

from __future__ import annotations

import html
import math
import re

import lxml.etree
import lxml.html
import pytest
from moodle_xml_parser.parser import parse_bytes

from dtlearn import grading
from dtlearn.answers import Work
from dtlearn.lms_items import exercise, half_unit
from dtlearn.lms_moodle import moodle_xml
from lms_fixtures import HOSTILE_ATTRIBUTES, HOSTILE_CLASSES, hostile_class, root_numbers, tennis_class


@pytest.fixture(scope="module")
def tennis():
    return tennis_class("id3")


@pytest.fixture(scope="module")
def read(tennis):
    return parse_bytes(moodle_xml(tennis, "PlayTennis"))["cloze"]


def numerical(gap) -> list[tuple[float, float, int, str]]:
    """A NUMERICAL gap's answers as Moodle's syntax defines them: value:tolerance, fraction, feedback."""
    out = []
    for option in gap.options:
        value, _, tolerance = option.answer.partition(":")
        out.append((float(value), float(tolerance or 0), option.score, html.unescape(option.feedback or "")))
    return out


def test_one_cloze_question_per_variant_named_by_student(tennis, read):
    assert [q.name for q in read] == [f"PlayTennis: {v.student}" for v in tennis]
    for question, variant in zip(read, tennis):
        assert len(question.gaps) == len(exercise(variant, "PlayTennis").blanks)
        assert {g.sub_type for g in question.gaps} == {"NUMERICAL", "MULTICHOICE"}


def test_the_right_answers_are_the_counted_numbers_within_half_a_unit(tennis, read):
    for question, variant in zip(read, tennis):
        counted = root_numbers(variant)
        blanks = exercise(variant, "PlayTennis").blanks
        root = [(b, g) for b, g in zip(blanks, question.gaps) if b.step == variant.asked[0].number and not b.choices]
        assert len(root) == len(counted)  # the node's entropy and every attribute's gain
        for blank, gap in root:
            name = "node_entropy" if blank.quantity == "node_entropy" else f"gain {blank.label.split(' on ')[-1]}"
            value, tolerance, score, feedback = numerical(gap)[0]
            assert score == 100 and feedback.startswith("Right")
            assert value == pytest.approx(counted[name], abs=1e-12)
            assert tolerance == half_unit(variant.digits) == 0.0005


def test_the_attribute_chosen_is_the_one_right_choice(tennis, read):
    for question, variant in zip(read, tennis):
        chosen = [g for g in question.gaps if g.sub_type == "MULTICHOICE"]
        assert [[o.answer for o in g.options if o.score == 100] for g in chosen] == \
            [[str(s.test.attribute)] for s in variant.asked]


def test_the_named_mistakes_are_wrong_answers_with_their_explanation(tennis, read):
    variant, question = tennis[0], read[0]
    counted = root_numbers(variant)
    gain_gaps = [g for b, g in zip(exercise(variant, "PlayTennis").blanks, question.gaps) if b.quantity == "gain"]
    answers = numerical(gain_gaps[0])
    exact = answers[0][0]
    by_value = {round(v, 9): (score, feedback) for v, _, score, feedback in answers[1:]}
    # log base e instead of 2 scales every entropy (hence the gain) by ln 2 (Quinlan 1986 uses bits)
    score, feedback = by_value[round(exact * math.log(2), 9)]
    assert score == 0 and "natural logarithm (ln) instead of log2" in feedback and "log2 x = ln x / ln 2" in feedback
    # gain written the wrong way round: after - before
    assert by_value[round(-exact, 9)][0] == 0 and "wrong way round" in by_value[round(-exact, 9)][1]
    assert exact == pytest.approx(next(v for k, v in counted.items() if k.startswith("gain ")), abs=1e-12)


def test_every_answer_agrees_with_the_checker(tennis):
    """Each right answer, written to the decimals asked, is right for `grading.grade`; each
    wrong one outside every right interval is wrong there, with the same mistake named."""
    steps = {s.number: s for v in tennis for s in v.asked}
    for variant in tennis:
        for blank in exercise(variant, "PlayTennis").blanks:
            if blank.choices:
                continue
            step = next(s for s in variant.asked if s.number == blank.step)
            work = Work.of(step, blank.row)
            k = variant.digits
            rights = [a for a in blank.answers if a.right]
            for answer in blank.answers:
                text = f"{answer.value:.{k}f}"
                verdict = grading.grade(work, blank.quantity, text, digits=k)
                inside_right = any(abs(float(text) - r.value) <= r.tolerance + 1e-12 for r in rights)
                if answer.right:
                    assert verdict.right, (blank.ident, text, verdict.message)
                elif not inside_right and float(text) != 0:
                    assert not verdict.right
                    named = {m.name for m in verdict.mistakes}
                    assert any(name in answer.feedback for name in named), (text, answer.feedback, named)
    assert steps


def test_hostile_names_reach_moodle_as_text(tmp_path):
    variants = hostile_class()
    data = moodle_xml(variants, "<b>{1:NM:=1}</b>")
    root = lxml.etree.fromstring(data)  # well-formed whatever the names
    questions = root.findall("question[@type='cloze']")
    assert [q.findtext("name/text") for q in questions] == [f"<b>{{1:NM:=1}}</b>: {v.student}" for v in variants]
    for question, variant in zip(questions, variants):
        text = question.findtext("questiontext/text")
        blanks = exercise(variant, "x").blanks
        # Moodle finds gaps by '{digits:TYPE:': only ours may be there, and no other brace at all
        assert len(re.findall(r"\{[0-9]*:[A-Z_]+:", text)) == len(blanks) == text.count("{")
        page = lxml.html.fragment_fromstring(re.sub(r"\{[0-9]*:[A-Z_]+:[^}]*\}", "", text), create_parent="div")
        assert page.xpath("//table//th/text()") == ["#", *HOSTILE_ATTRIBUTES, "{cls}"]
        assert not page.xpath("//b[text()='&amp;'] | //x | //i | //no")  # no tag from a name
        cells = {td.text for td in page.xpath("//table//td")}
        assert {"{2:MC:=x}", "y~z", "]]>", "&lt;", "#1", "}~", "<i>", "&"} <= cells
        # the choice of a gap, decoded as Moodle decodes it (html_entity_decode), is the name as text
        choice = re.findall(r"\{1:MULTICHOICE:([^}]*)\}", text)[0]
        options = [lxml.html.fragment_fromstring(html.unescape(o.lstrip("=")), create_parent="p").text_content()
                   for o in choice.split("~")]
        assert set(options) <= set(HOSTILE_ATTRIBUTES) | set(HOSTILE_CLASSES) and options
