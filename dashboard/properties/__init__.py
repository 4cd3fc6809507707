"""The Property checker: Wu et al.'s properties, demos, VI's range against NVI's (``views``)."""
