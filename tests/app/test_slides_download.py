"""The Step page's slides: an HTML deck and a beamer PDF (or its LaTeX) of a chosen range of steps,
written when clicked; none on a projector, whose page is the live deck."""

from __future__ import annotations

from dtlearn import slides_tex


def test_the_step_page_offers_the_steps_so_far_as_slides(open_app):
    app = open_app(dataset="tennis", algo="id3", step="3").page("step")
    app.assert_clean()
    downloads = {b.proto.label: b.proto for b in app.at.get("download_button")}
    pdf = "Slides (PDF)" if slides_tex.beamer_available() else "Slides (LaTeX, zip)"
    assert set(downloads) == {"Slides (HTML)", pdf}
    assert all(d.deferred_file_id for d in downloads.values())  # made when clicked, not at every step
    assert app.at.slider(key="slides_steps").value == (1, 3)  # the steps so far
    assert not app.at.toggle(key="slides_tables").value and not app.at.toggle(key="slides_formulas").value


def test_a_projector_has_no_slides_to_download(open_app):
    app = open_app(dataset="tennis", algo="id3", step="3", projector="1").page("step")
    app.assert_clean()
    assert not [b for b in app.at.get("download_button") if b.proto.label.startswith("Slides")]
