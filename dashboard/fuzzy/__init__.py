"""The Fuzzy lab: Utt et al.'s worked example, playground, Experiments 1–3, cached units (``views``)."""
