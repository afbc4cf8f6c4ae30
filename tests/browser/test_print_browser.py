"""Practice on paper: the checked answers print without the sidebar, the toolbar or the buttons, over
the page's whole width (Streamlit's own print output put the sidebar mid-page); the record of the
graded work downloads as a PDF compiled on the server.

Answers: PlayTennis's root (Mitchell 1997), Gain(S, Outlook) = 0.2467 and 0.171 in nats (x ln 2),
H(9/14, 5/14) = 0.940, from tests/exact.py.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.exact import entropy, info_gain

pytestmark = [pytest.mark.browser]

GAIN = info_gain([(3, 2), (0, 4), (2, 3)])
SIDEBAR_WORDS = ("Target column", "Attribute kinds", "Step through")  # the sidebar's labels and menu

# Under print media: is the sidebar drawn, and how wide is the main column against the page?
LAYOUT = """() => {
  const shown = e => !!e && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().width > 0;
  const main = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
  return {sidebar: shown(document.querySelector('[data-testid="stSidebar"]')),
          buttons: [...document.querySelectorAll('[data-testid="stDownloadButton"], [data-testid="stButton"],'
                    + '[data-testid="stFormSubmitButton"], [data-testid="stToolbar"]')].filter(shown).length,
          left: main.left, width: main.width, page: document.documentElement.clientWidth};
}"""


def checked_answers(page, app_url, ui) -> None:
    page.goto(app_url + "/practice?dataset=tennis&algo=id3")
    field = page.get_by_label("Information gain")
    field.wait_for()
    field.fill(f"{GAIN * math.log(2):.3f}")
    page.get_by_label("Entropy of the node, Ent(D)").fill(f"{entropy((9, 5)):.3f}")
    page.get_by_role("button", name="Check my answers").click()
    page.get_by_text("2 answers checked on this tree, 1 right").wait_for()
    ui.settle(page, ui.LATEX)


def test_the_checked_answers_print_without_the_sidebar(browser, app_url, ui, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    checked_answers(page, app_url, ui)
    page.screenshot(path=str(tmp_path / "screen.png"))
    assert page.evaluate(LAYOUT)["sidebar"]  # on screen the sidebar is there
    page.emulate_media(media="print")
    layout = page.evaluate(LAYOUT)
    assert not layout["sidebar"] and layout["buttons"] == 0, layout
    assert layout["left"] <= 2 and layout["width"] >= 0.95 * layout["page"], layout  # the page's whole width
    pdf = tmp_path / "practice.pdf"
    page.pdf(path=str(pdf), format="A4")
    context.close()
    assert pdf.read_bytes().startswith(b"%PDF")
    if not shutil.which("pdftotext"):  # poppler-utils, installed by .ci/run
        if os.environ.get("CI"):
            pytest.fail("CI is set but pdftotext is missing: apt-get install -y poppler-utils (see .ci/run).")
        pytest.skip("pdftotext is missing (Debian: apt-get install poppler-utils)")
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert text.lstrip().startswith("Practice"), text[:300]
    assert not [w for w in SIDEBAR_WORDS if w in text], text[:600]
    assert "Check my answers" not in text and "Record (Markdown)" not in text
    assert "1 of 2 right" in text and "natural" in text


def test_the_record_downloads_as_a_pdf(page, app_url, ui):
    checked_answers(page, app_url, ui)
    name = "Record (PDF)" if shutil.which("pdflatex") else "Record (LaTeX)"
    with page.expect_download() as download:
        page.get_by_role("button", name=name).click()
    data = Path(download.value.path()).read_bytes()
    if name == "Record (PDF)":
        assert download.value.suggested_filename == "tennis-id3-checked-answers.pdf"
        assert data.startswith(b"%PDF")
    else:
        assert download.value.suggested_filename == "tennis-id3-checked-answers.tex"
        assert data.startswith(b"\\documentclass")
    with page.expect_download() as download:
        page.get_by_role("button", name="Record (Markdown)").click()
    markdown = Path(download.value.path()).read_text(encoding="utf-8")
    assert f"| Information gain | 0.171 | wrong | {GAIN:.6f} |" in markdown
    assert page.locator(ui.EXCEPTION).count() == 0
