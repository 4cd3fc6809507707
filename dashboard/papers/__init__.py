"""The papers in the app: the Paper gallery (``gallery``: ``metrics.papers.gallery`` rows with links to
the pages) and the facts a student checks against the papers, stated once (``facts``)."""
