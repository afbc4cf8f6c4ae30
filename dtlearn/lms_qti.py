"""A class's variants as an IMS QTI 2.1 content package (Canvas, Blackboard, and other LMSs that read QTI 2.1).

The package is a zip: `imsmanifest.xml` (IMS Content Packaging 1.1) listing one
`assessmentItem` per student (`items/item-001.xml`, ...; the student's identifier is in the
item's title, never in a file name). An item shows the variant's table and the sheet's questions
(`lms_items.exercise`): each number a `textEntryInteraction` (baseType float), each choice an
`inlineChoiceInteraction`. Its `responseProcessing` is the checker's rule as `lms_items` writes
it: SCORE gains 1 when the entry equals the exact value within half a unit of the k-th decimal
(`equal toleranceMode="absolute"`) or equals the textbook's value; else each common mistake's
value (within the same half unit) adds its identifier to FEEDBACK, and the `modalFeedback` of
that identifier names the mistake. Names and values from the file are XML-escaped text.

>>> import dtlearn, io, zipfile
>>> from dtlearn.variants import Constraints, class_set
>>> ada = class_set(dtlearn.load_dataset("tennis"), ["ada"], 7, Constraints("id3"))
>>> sorted(zipfile.ZipFile(io.BytesIO(qti_package(ada, "PlayTennis"))).namelist())
['imsmanifest.xml', 'items/item-1.xml']
"""

from __future__ import annotations

import io
import zipfile
from typing import Sequence
from xml.sax.saxutils import escape, quoteattr

from .data import DataError
from .lms_items import Blank, Exercise, exercise
from .lms_moodle import number

__all__ = ["item_xml", "manifest_xml", "qti_package"]

QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"
CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
QTI_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP_XSD = "http://www.imsglobal.org/xsd/imscp_v1p1.xsd"


def _rid(blank: Blank) -> str:
    return blank.ident.upper()


def _declarations(ex: Exercise) -> list[str]:
    out = []
    for b in ex.blanks:
        if b.choices:
            right = f"C{b.choices.index(b.exact) + 1}"
            out.append(f'<responseDeclaration identifier="{_rid(b)}" cardinality="single" baseType="identifier">'
                       f"<correctResponse><value>{right}</value></correctResponse></responseDeclaration>")
        else:
            out.append(f'<responseDeclaration identifier="{_rid(b)}" cardinality="single" baseType="float">'
                       f"<correctResponse><value>{number(b.answers[0].value)}</value></correctResponse>"
                       "</responseDeclaration>")
    out += ['<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float">'
            "<defaultValue><value>0</value></defaultValue></outcomeDeclaration>",
            '<outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float">'
            f"<defaultValue><value>{len(ex.blanks)}</value></defaultValue></outcomeDeclaration>",
            '<outcomeDeclaration identifier="FEEDBACK" cardinality="multiple" baseType="identifier"/>']
    return out


def _interaction(b: Blank) -> str:
    if b.choices:
        options = "".join(f'<inlineChoice identifier="C{i}">{escape(c)}</inlineChoice>'
                          for i, c in enumerate(b.choices, 1))
        return f'<inlineChoiceInteraction responseIdentifier="{_rid(b)}" shuffle="false">{options}' \
               "</inlineChoiceInteraction>"
    return f'<textEntryInteraction responseIdentifier="{_rid(b)}" expectedLength="10"/>'


def _body(ex: Exercise) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in ("#", *ex.columns))
    rows = "".join("<tr><td>" + str(i) + "</td>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>"
                   for i, row in enumerate(ex.rows, 1))
    out = [f"<p><b>Student:</b> {escape(ex.student)}, <b>seed:</b> {ex.seed}</p>",
           f"<p>{escape(ex.introduction)} Write numbers with a decimal point.</p>",
           f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"]
    for part in ex.parts:
        out.append(f"<h4>{escape(part.heading)}</h4><ol>")
        for question, blanks in part.questions:
            gaps = "".join(f"<br/>{escape(b.label)}: {_interaction(b)}" for b in blanks)
            out.append(f"<li>{escape(question)}{gaps}</li>")
        out.append("</ol>")
    return "<itemBody>" + "".join(out) + "</itemBody>"


def _equal(rid: str, value: float, tolerance: float) -> str:
    mode = f'toleranceMode="absolute" tolerance="{number(tolerance)}"' if tolerance else 'toleranceMode="exact"'
    return f'<equal {mode}><variable identifier="{rid}"/><baseValue baseType="float">{number(value)}</baseValue>' \
           "</equal>"


_ADD_ONE = ('<setOutcomeValue identifier="SCORE"><sum><variable identifier="SCORE"/>'
            '<baseValue baseType="float">1</baseValue></sum></setOutcomeValue>')


def _feedback_id(b: Blank, i: int) -> str:
    return f"F_{_rid(b)}_{i}"


def _show(identifier: str) -> str:
    return ('<setOutcomeValue identifier="FEEDBACK"><multiple><variable identifier="FEEDBACK"/>'
            f'<baseValue baseType="identifier">{identifier}</baseValue></multiple></setOutcomeValue>')


def _condition(b: Blank) -> str:
    """Right (any right answer): SCORE + 1; else the first mistake that matches: its feedback."""
    rid = _rid(b)
    if b.choices:
        right = f'<match><variable identifier="{rid}"/><correct identifier="{rid}"/></match>'
        return f"<responseCondition><responseIf>{right}{_ADD_ONE}</responseIf></responseCondition>"
    rights = "".join(_equal(rid, a.value, a.tolerance) for a in b.answers if a.right)
    out = [f"<responseCondition><responseIf><or>{rights}</or>{_ADD_ONE}</responseIf>"]
    for i, a in enumerate(b.answers):
        if not a.right:
            out.append(f"<responseElseIf>{_equal(rid, a.value, a.tolerance)}{_show(_feedback_id(b, i))}"
                       "</responseElseIf>")
    return "".join(out) + "</responseCondition>"


def _modal_feedback(ex: Exercise) -> list[str]:
    return [f'<modalFeedback outcomeIdentifier="FEEDBACK" identifier="{_feedback_id(b, i)}" showHide="show">'
            f"<p>{escape(f'Step {b.step}, {b.label}: {a.feedback}')}</p></modalFeedback>"
            for b in ex.blanks for i, a in enumerate(b.answers) if not a.right]


def item_xml(ex: Exercise, identifier: str, title: str) -> bytes:
    """One variant's assessmentItem (UTF-8)."""
    processing = "<responseProcessing>" + "".join(_condition(b) for b in ex.blanks) + "</responseProcessing>"
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<assessmentItem xmlns="{QTI}" xmlns:xsi="{XSI}" xsi:schemaLocation="{QTI} {QTI_XSD}" '
           f'identifier="{identifier}" title={quoteattr(title)} adaptive="false" timeDependent="false">',
           *_declarations(ex), _body(ex), processing, *_modal_feedback(ex), "</assessmentItem>"]
    return ("\n".join(out) + "\n").encode("utf-8")


def manifest_xml(items: Sequence[tuple[str, str]], title: str) -> bytes:
    """The package's manifest: one imsqti_item_xmlv2p1 resource per (identifier, href)."""
    resources = "".join(f'<resource identifier="RES-{ident}" type="imsqti_item_xmlv2p1" href="{href}">'
                        f'<file href="{href}"/></resource>' for ident, href in items)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<manifest xmlns="{CP}" xmlns:xsi="{XSI}" xsi:schemaLocation="{CP} {CP_XSD}" '
            f'identifier="MANIFEST-dtlearn"><metadata><schema>QTIv2.1 Package</schema>'
            f"<schemaversion>1.0.0</schemaversion></metadata><organizations/>"
            f"<resources>{resources}</resources></manifest>\n"
            f"<!-- {escape(title).replace('--', '- -')} -->\n").encode("utf-8")


def qti_package(variants: Sequence, dataset: str) -> bytes:
    """The class as a QTI 2.1 content package (zip bytes): the manifest and one item per variant."""
    if not variants:
        raise DataError("The class has no variants.")
    width = len(str(len(variants)))
    buffer, listed = io.BytesIO(), []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        for i, variant in enumerate(variants, 1):
            ident = f"item-{str(i).zfill(width)}"
            href = f"items/{ident}.xml"
            ex = exercise(variant, dataset)
            package.writestr(href, item_xml(ex, ident, f"{dataset}: {variant.student}"))
            listed.append((ident, href))
        package.writestr("imsmanifest.xml", manifest_xml(listed, f"{dataset}, seed {variants[0].seed}"))
    return buffer.getvalue()
