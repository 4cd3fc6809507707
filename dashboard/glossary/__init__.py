"""The Glossary page's feature: every symbol the app shows — the registry's measures and the
other symbols of the formulas (``symbols``) — searched and drawn (``views``)."""
