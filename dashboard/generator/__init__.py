"""The Generator lab: Dom's family, sweeps, P1–P7 beside the printed Table 2 (``views``)."""
