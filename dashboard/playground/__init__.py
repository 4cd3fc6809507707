"""The playground (move items between clusters and watch every measure) and the uniform effect live
(K-means on skewed data beside Wu et al.'s printed thresholds)."""
