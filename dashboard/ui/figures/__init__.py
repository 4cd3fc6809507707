"""Plotly figures any page draws: a figure sent as a plain dict (``charts.figure``), the heatmap of
a table and the goodness chart (``charts``), and line charts over a swept parameter in small
multiples (``lines``). A page's own figures live in its feature folder."""
