"""The papers' content: their constructed clusterings (:mod:`~metrics.papers.generators`), their
experiments re-run (:mod:`~metrics.papers.experiments`) and every printed number recomputed beside
its printed value (:mod:`~metrics.papers.gallery`).

Nothing is imported here: ``metrics.papers.gallery`` reads the property checks
(:mod:`metrics.properties`), which build on the generators.
"""
