"""The QTI 2.1 content package read back by readers the project did not write.

Every file is validated by libxml2 (lxml) against IMS's published schemas, vendored unchanged in
tests/fixtures/qti/ (imsqti_v2p1.xsd, imscp_v1p1.xsd; README there for sources and licence). Each
item's response processing is run by pyslet (IMS QTI 2.1 in Python): the key's numbers score, a
named mistake's number shows that mistake's feedback. The right values equal the root's numbers
counted from the variant's CSV with pandas (`lms_fixtures.root_numbers`).
"""

from __future__ import annotations

import io
import logging
import math
import zipfile
from pathlib import Path

import lxml.etree as etree
import pytest
from pyslet.qtiv2 import expressions, variables
from pyslet.qtiv2 import xml as pyslet_xml

from dtlearn.lms_items import exercise
from dtlearn.lms_qti import qti_package
from lms_fixtures import HOSTILE_ATTRIBUTES, hostile_class, root_numbers, tennis_class

SCHEMAS = Path(__file__).parent / "fixtures" / "qti"
# imports of the IMS schemas -> the local file (stand-ins for what the exports never use)
IMPORTS = {"xml.xsd": "xml.xsd", "XInclude.xsd": "stub_xinclude.xsd", "mathml2.xsd": "stub_mathml.xsd",
           "apipv1p0_qtiextv2p1_v1p0.xsd": "stub_apip.xsd", "imsmd_v1p2p4.xsd": "stub_imsmd.xsd"}
QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"


class _Local(etree.Resolver):
    def resolve(self, url, pubid, context):
        name = url.rsplit("/", 1)[-1]
        return self.resolve_filename(str(SCHEMAS / IMPORTS[name]), context) if name in IMPORTS else None


def schema(name: str) -> etree.XMLSchema:
    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(_Local())
    return etree.XMLSchema(etree.parse(str(SCHEMAS / name), parser))


@pytest.fixture(scope="module")
def schemas():
    return schema("imsqti_v2p1.xsd"), schema("imscp_v1p1.xsd")


@pytest.fixture(scope="module")
def tennis():
    return tennis_class("c45")


def files(variants, dataset="PlayTennis") -> dict[str, bytes]:
    package = zipfile.ZipFile(io.BytesIO(qti_package(variants, dataset)))
    return {name: package.read(name) for name in package.namelist()}


def assert_valid(schemas, written: dict[str, bytes]) -> None:
    items, manifest = schemas
    for name, data in written.items():
        check = manifest if name == "imsmanifest.xml" else items
        assert check.validate(etree.fromstring(data)), (name, check.error_log.filter_from_errors()[:3])


def test_every_file_is_valid_against_ims_schemas(schemas, tennis):
    written = files(tennis)
    assert sorted(written) == ["imsmanifest.xml", "items/item-1.xml", "items/item-2.xml", "items/item-3.xml"]
    assert_valid(schemas, written)
    hrefs = etree.fromstring(written["imsmanifest.xml"]).xpath("//*[local-name()='file']/@href")
    assert sorted(hrefs) == sorted(n for n in written if n.startswith("items/"))


def test_the_schema_rejects_what_it_should(schemas, tennis):
    """The validation can fail: an item without its identifier, a float response named nowhere."""
    items, _ = schemas
    item = etree.fromstring(files(tennis)["items/item-1.xml"])
    del item.attrib["identifier"]
    assert not items.validate(item)
    item = etree.fromstring(files(tennis)["items/item-1.xml"])
    item.find(f"{QTI}responseDeclaration").set("baseType", "decimal")
    assert not items.validate(item)


def test_hostile_names_are_text_in_valid_items(schemas):
    variants = hostile_class()
    written = files(variants, "<b>{1:NM:=1}</b>]]>")
    assert_valid(schemas, written)
    item = etree.fromstring(written["items/item-1.xml"])
    assert item.get("title") == f"<b>{{1:NM:=1}}</b>]]>: {variants[0].student}"
    headers = [th.text for th in item.iter(f"{QTI}th")]
    assert headers == ["#", *HOSTILE_ATTRIBUTES, "{cls}"]
    assert not list(item.iter(f"{QTI}x")) and not list(item.iter(f"{QTI}i"))


def test_the_right_values_are_the_counted_numbers(tennis):
    for variant, (name, data) in zip(tennis, sorted(n for n in files(tennis).items() if n[0] != "imsmanifest.xml")):
        item = etree.fromstring(data)
        counted = root_numbers(variant)
        blanks = {b.ident.upper(): b for b in exercise(variant, "PlayTennis").blanks}
        for declaration in item.iter(f"{QTI}responseDeclaration"):
            blank = blanks[declaration.get("identifier")]
            if blank.step == 1 and blank.quantity in ("node_entropy", "gain"):
                key = "node_entropy" if blank.quantity == "node_entropy" else f"gain {blank.label.split(' on ')[-1]}"
                value = float(declaration.findtext(f"{QTI}correctResponse/{QTI}value"))
                assert value == pytest.approx(counted[key], abs=1e-12), (name, key)


# pyslet runs the response processing -------------------------------------------------------------

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pyslet calls its own old names


def session(data: bytes):
    document = pyslet_xml.QTIDocument()
    logging.disable(logging.ERROR)  # pyslet logs its own reading of `tolerance` (mended below)
    try:
        document.read(src=data)
    finally:
        logging.disable(logging.NOTSET)
    item = document.root
    for equal in item.find_children_depth_first(expressions.Equal):
        if isinstance(equal.tolerance, str):  # pyslet 0.7 keeps the attribute as a string, not QTI's list
            equal.tolerance = equal.tolerance.split()
    state = variables.ItemSessionState(item)
    state.select_clone()
    state.begin_session()
    for declaration in item.ResponseDeclaration:  # begin_attempt without rendering HTML
        state.map[declaration.identifier] = variables.Value.copy_value(state.map[declaration.identifier + ".DEFAULT"])
    return item, state


def test_pyslet_scores_the_key_and_names_a_mistake(tennis):
    variant = tennis[0]
    blanks = exercise(variant, "PlayTennis").blanks
    data = files(tennis)["items/item-1.xml"]
    _, state = session(data)
    gain = next(b for b in blanks if b.quantity == "gain")
    for blank in blanks:
        if blank.choices:
            state[blank.ident.upper()] = variables.IdentifierValue(f"C{blank.choices.index(blank.exact) + 1}")
        elif blank is gain:  # ln instead of log2: the gain times ln 2, written to the decimals asked
            state[blank.ident.upper()] = variables.FloatValue(round(blank.exact * math.log(2), variant.digits))
        else:
            state[blank.ident.upper()] = variables.FloatValue(float(blank.shown))
    state.end_attempt()
    assert state["SCORE"].value == len(blanks) - 1
    shown = list(state["FEEDBACK"].value)
    assert len(shown) == 1
    text = "".join(etree.fromstring(data).xpath(f"//*[local-name()='modalFeedback'][@identifier='{shown[0]}']//text()"))
    assert "natural logarithm (ln) instead of log2" in text and gain.label in text
