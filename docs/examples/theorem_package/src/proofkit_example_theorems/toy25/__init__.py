"""TOY25: the theorems of a made-up note (toy25.bib), encoded as examples."""
