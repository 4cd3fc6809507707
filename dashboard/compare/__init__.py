"""The Compare page's feature: which of two solutions each measure prefers (``view``, the tie rule of
``metrics.solutions``), its figures (``charts``), and solution R morphing into singletons (``morph``)."""
