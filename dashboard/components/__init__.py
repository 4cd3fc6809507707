"""Reusable views and state helpers shared by the dashboard's pages.

``presets``   the papers' worked examples, read from ``assets/presets``
``tables``    editor frames, uploads and links → one validated ``Contingency``; cached ``evaluate``
``upload``    the upload panel: label or table files → ``metrics.io`` (the one reader) → ``Contingency``
``editor``    the table editor (data editor, cluster names, last valid table)
``measures``  the measure table, formulas and downloads
``readout``   what a user reads: the one number format for tables (``show_frame``), labels
              escaped for Plotly and Markdown, chart fonts ≥ 11 px (``readable``; the lesson's
              projector sizes too)
``charts``    Plotly figures: heatmap, goodness, preference, morph
``compare``   which solution each measure prefers
``morph``     solution R against singletons (metrics.generators): cached sweeps, flips
``controls``  the shared sidebar controls (log base, β)
``sources``   choosing a solution on the Compare page (preset, Table lab's table, upload)
``state``     page state: a page is a function of its declared parameters, a link sets them all
              (``page_state``, ``page_link``, Reset, URL-bound tabs)
``server_process``  once per server process: one BLAS thread (sessions are the parallelism)
``scenarios`` the guided scenarios linked from Home, each naming its lesson step
``lesson``    the lesson: its steps (narrative, the one chart, "explore this" links); ``lesson_charts``
              the figures only it draws, and ``readable`` at projector sizes
``facts``     facts a student checks against the papers, stated once (VI's range, printed-vs-computed
              notes, reconstructed tables)
``generator_views``  the Generator lab: Dom's family, sweeps, P1–P7 beside the printed Table 2
``property_views``   the Property checker: Wu et al.'s properties, demos, VI's range against NVI's
``lines``     line charts over a swept parameter (small multiples), for Real data and the Fuzzy lab
``fuzzy_views``      the Fuzzy lab: Utt et al.'s worked example, playground, Experiments 1–3 (cached units)
``real_data_views``  bundled data sets clustered for every k (scikit-learn, SciPy), cached per k
``gallery_views``    the Paper gallery: ``metrics.gallery`` rows as tables with links to the pages
``chance_views``     the Chance page: ``metrics.chance`` expectations, null distributions and sweeps, cached
                     per parameters; ``chance_charts`` its figures
``solutions_views``  the Solutions page: sets of solutions (presets, Real data runs, uploads), their cached
                     ``metrics.compare_solutions`` analysis, the Compare link; ``solutions_charts`` its
                     figures (verdict heatmap, Kendall τ, Sankey); ``solutions_upload`` its uploads
"""
