"""The page on paper: a print stylesheet that leaves out the sidebar, the header and the buttons.

Streamlit's own print output keeps the sidebar, which lands in the middle of the page, and
scrolls the main column inside a box of the window's height. On paper (`@media print`) the
sidebar, the toolbar and every button are hidden and the main column flows over the page's
whole width, page after page. Nothing changes on screen.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

PRINT_CSS = (Path(__file__).parent / "assets" / "print.css").read_text(encoding="utf-8")


def print_style() -> None:
    """Add the print stylesheet to the page (no element on screen)."""
    st.html(f"<style>{PRINT_CSS}</style>")
