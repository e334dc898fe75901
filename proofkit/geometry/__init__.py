"""Lemma-1 geometry: closed sets in R^2 as exact pieces and the hinge-function falsifier over them."""
