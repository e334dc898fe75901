"""Finite-precision limit transformers, exactly: the flush-to-zero rule decided in integers
(:mod:`.flush`), the one-layer model and its forward pass (:mod:`.model`), the logit margin and the
hardmax regime over every length (:mod:`.margin`), and small models that separate the readings of the
definitions (:mod:`.zoo`)."""
