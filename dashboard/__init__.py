"""Partition Lab's Streamlit app: ``partition-lab app``, or ``streamlit run dashboard/app.py`` from the
repository root.

``app.py`` is the entry (navigation and page list); ``app_pages/`` holds one script per page (not
``pages/``: Streamlit would treat that folder as a legacy auto-discovered multipage app and, on a
deep link opened first after a server start, run the page without the entry script); ``server/``
is the server process (settings, preloading, warm-up); ``ui/`` the shared widgets, among them the
single path from user input to a :class:`metrics.Contingency`; and one folder per page feature
(``chance/``, ``solutions/``, ``lesson/``, ``compare/``, ``papers/``, ``generator/``,
``properties/``, ``fuzzy/``, ``real_data/``) holds that feature's views, data and charts.

Imports run one way: pages → features → ``ui`` → ``metrics``. No measure formula lives here: every
number shown comes from :mod:`metrics`, every list of measures from :data:`metrics.MEASURES`.
"""
