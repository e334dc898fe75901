"""The results about C-RASP beyond running programs: eventual forms on periodic inputs, MAJ2 logic,
uniform morphisms and reductions, finite proxies for the asymptotic results, induction heads."""
