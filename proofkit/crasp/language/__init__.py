"""The C-RASP language: the IR (Huang et al. 2024, Def. 8), tokenizer, parser and printer, syntax
diagnostics, and the static analyses (fragments, depth) read off the IR."""
