"""The dashboard's shared widgets: what every page may use, and nothing that belongs to one page.

``state``     page state: a page is a function of its declared parameters, a link sets them all
              (``page_state``, ``page_link``, Reset, URL-bound tabs)
``controls``  the shared sidebar controls (log base, β)
``readout``   what a user reads: the one number format for tables (``show_frame``), labels escaped
              for Plotly and Markdown, chart fonts ≥ 11 px (``readable``; projector sizes too)
``safe_text`` every user text made inert in Markdown (``md``)
``figures``   Plotly figures every page draws (``figures.charts``: the heatmap of a table, the goodness
              chart; ``figures.lines``: line charts over a swept parameter, in small multiples)
``tables``    editor frames, uploads and links → one validated ``Contingency``; cached ``evaluate``
``upload``    the upload panel: label or table files → ``metrics.io`` (the one reader) → ``Contingency``
``editor``    the table editor (data editor, cluster names, last valid table)
``presets``   the papers' worked examples, read from ``assets/presets``
``sources``   choosing a solution (preset, the Table lab's table, an upload)
``measures``  the measure table, formulas and downloads

A module here imports no page feature (``dashboard/<feature>/``): features build on these.
"""
