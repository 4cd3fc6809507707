"""Partition Lab's Streamlit app: ``streamlit run dashboard/app.py`` from the repository root.

``app.py`` is the entry (navigation and page list), ``app_pages/`` holds one script per page (not
``pages/``: Streamlit would treat that folder as a legacy auto-discovered multipage app and, on a
deep link opened first after a server start, run the page without the entry script), and
``components/`` the reusable views and the single path from user input to a
:class:`metrics.Contingency`. No measure formula lives here: every number shown comes from
:mod:`metrics`, every list of measures from :data:`metrics.MEASURES`.
"""
