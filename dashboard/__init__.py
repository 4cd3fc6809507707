"""Partition Lab's Streamlit app: ``partition-lab app``, or ``streamlit run dashboard/app.py`` from the
repository root.

``app.py`` is the entry (navigation and page list); ``app_pages/`` holds one script per page, in
the folders of the sidebar's sections (``learn/``, ``analyse/``, ``explore/``; the home page at the top) (not
``pages/``: Streamlit would treat that folder as a legacy auto-discovered multipage app and, on a
deep link opened first after a server start, run the page without the entry script); ``server/``
is the server process (settings, preloading, warm-up); ``ui/`` the shared widgets, among them the
single path from user input to a :class:`metrics.Contingency`; and one folder per page feature
(``chance/``, ``solutions/``, ``lesson/``, ``compare/``, ``papers/``, ``generator/``,
``properties/``, ``fuzzy/``, ``real_data/``) holds that feature's views, data and charts.

Imports run one way: pages → features → ``ui`` → ``metrics``. No measure formula lives here: every
number shown comes from :mod:`metrics`, every list of measures from :data:`metrics.MEASURES`.
"""

from functools import cache
from pathlib import Path


def page_scripts() -> dict[str, str]:
    """Every page's script by the page's name, relative to ``app.py`` as Streamlit's ``st.Page``,
    ``switch_page`` and ``AppTest`` take it: ``{"compare": "app_pages/analyse/compare.py", …}``.

    Read from the installed package's files, so that a page moved between the sidebar's folders
    needs no edit elsewhere; names are unique across the folders (a test checks it)."""
    return dict(_page_scripts())  # a copy: a caller may change its own


@cache
def _page_scripts() -> tuple[tuple[str, str], ...]:
    root = Path(__file__).parent
    return tuple((p.stem, p.relative_to(root).as_posix()) for p in sorted((root / "app_pages").rglob("*.py")))
