"""The Real data page: bundled data sets clustered for every k (scikit-learn, SciPy), cached per k
(``views``)."""
