"""The page on paper: a print stylesheet that leaves out the sidebar, the header and the buttons.

Streamlit's own print output keeps the sidebar, which lands in the middle of the page, and
scrolls the main column inside a box of the window's height. On paper (`@media print`) the
sidebar, the toolbar and every button are hidden and the main column flows over the page's
whole width, page after page. Nothing changes on screen.
"""

from __future__ import annotations

import streamlit as st

PRINT_CSS = """
@page { margin: 15mm; }
@media print {
  [data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stHeader"],
  [data-testid="stToolbar"], [data-testid="stDecoration"], [data-testid="stStatusWidget"],
  [data-testid="stBottom"], [data-testid="stButton"], [data-testid="stDownloadButton"],
  [data-testid="stFormSubmitButton"], [data-testid="stBaseButton-headerNoPadding"] {
    display: none !important;
  }
  html, body, #root, .stApp, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stMain"],
  [data-testid="stAppScrollToBottomContainer"], [data-testid="stMainBlockContainer"] {
    position: static !important; overflow: visible !important; height: auto !important;
    min-height: 0 !important; max-height: none !important;
  }
  [data-testid="stAppViewContainer"], [data-testid="stMain"] { display: block !important; margin: 0 !important; }
  [data-testid="stMainBlockContainer"] {
    max-width: none !important; width: 100% !important; padding: 0 !important; margin: 0 !important;
  }
  [data-testid="stAlert"], .katex-display, [data-testid="stForm"] { break-inside: avoid; }
}
"""


def print_style() -> None:
    """Add the print stylesheet to the page (no element on screen)."""
    st.html(f"<style>{PRINT_CSS}</style>")
