"""dtlearn's web app: the entry point.

    uv run streamlit run app.py

The sidebar chooses the dataset (built-in or an uploaded CSV), the target column, the
attribute kinds, the algorithm and its settings (pages/sidebar.py); the pages in pages/ read
those choices (pages/view.py) and draw what dtlearn computed. The view lives in the URL: dataset,
target, kinds, algorithm, settings, page and step are query parameters (pages/address.py), so a
shared link opens the same view at the same step. Every run goes through the router
(pages/router.py), which a page run directly calls too: it lives beside the pages, so that no
page's helper imports this file.
"""

from __future__ import annotations

from pages.router import main

if __name__ == "__main__":
    main()
