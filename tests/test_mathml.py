"""Formulas as MathML: every line `derivation` writes is well-formed MathML that uses no command
the converter does not know, keeps the line's result, and keeps a file's names as text.

Read back by an independent reader: Python's XML parser (MathML is XML).
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

import dtlearn
from dtlearn import derivation, mathml


def parsed(written: str):
    return ElementTree.fromstring(written.replace('display="block"', ""))


# every line the derivations write ----------------------------------------------------------------

@pytest.mark.parametrize("name, algorithm", [("tennis", "c45"), ("iris", "cart"), ("watermelon_2alpha", "c45")])
def test_every_derivation_line_is_well_formed_mathml_with_no_unknown_command(name, algorithm):
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    for step in tree.steps[:4]:
        if step.table is None or not len(step.table):
            continue
        for section in derivation.derivation(step.table.iloc[0], tree.classes):
            for line in section.lines:
                written = mathml.to_mathml(line)
                root = parsed(written)  # XML: well formed
                assert root.tag == "math"
                assert not [t.text for t in root.iter("mtext") if (t.text or "").startswith("\\")], line
                result = line.rsplit("=", 1)[-1].strip()
                if result.replace(".", "").isdigit():
                    assert f"<mn>{result}</mn>" in written


def test_names_in_formulas_stay_text():
    line = derivation.text("<script>a&b</script> }{")
    written = mathml.to_mathml(line)
    assert "<script" not in written
    assert parsed(written).find("mtext").text == "<script>a&b</script> }{"


def test_fractions_scripts_and_blocks_are_mathml_elements():
    written = parsed(mathml.to_mathml(r"\begin{aligned}\mathrm{Ent}(D_{\text{a}}) &= \tfrac{5}{14}\log_2 x \\ "
                                      r"&\quad - \bar y^2\end{aligned}"))
    table = written.find("mtable")
    assert len(table.findall("mtr")) == 2 and len(table.find("mtr").findall("mtd")) == 2
    assert written.find(".//mfrac").attrib == {"displaystyle": "false"}
    assert [mn.text for mn in written.find(".//mfrac")] == ["5", "14"]
    assert written.find(".//msub/mi").text == "D" and written.find(".//msub/mtext").text == "a"
    assert written.find(".//msup/mover/mi").text == "y"
    assert "−" in [mo.text for mo in written.iter("mo")]  # a minus sign, not a hyphen


def test_a_block_ends_at_its_end():
    written = parsed(mathml.to_mathml(r"\begin{gathered}x = 1 \\ \text{(a note)}\end{gathered} + y"))
    assert [mi.text for mi in written.iter("mi")] == ["x", "y"]  # not the environment's name
    assert [len(row.findall("mtd")) for row in written.find("mtable").findall("mtr")] == [1, 1]

