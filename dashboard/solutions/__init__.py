"""The Solutions page's feature: sets of solutions (presets, Real data runs, uploads) and their cached
``metrics.compare_solutions`` analysis (``views``), their figures — verdict heatmap, Kendall τ, Sankey
(``charts``) — and the uploads of several solutions (``upload``)."""
