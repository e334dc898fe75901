"""Publishing what proofkit found: citations (``cite``), the verdict table in paper formats and figures
(``report``), and evidence bundles that another machine can verify (``bundle``, ``verify-bundle``).

One job per module: ``bib`` (the papers' BibTeX entries), ``env`` (versions and git commit), ``records``
(stored counterexample records), ``table`` (verdict rows), ``render`` (Markdown, LaTeX, CSV, JSON),
``figures`` (matplotlib, the optional ``plot`` extra), ``spec_json`` (a theorem's specification),
``bundle`` (build, hash, load), ``verify`` (re-derive a bundle and compare), ``compare`` (field-by-field
differences, escaped names), ``cite`` (what to cite), ``cli`` (the subcommands).
"""

#: the theorems the drop table covers by default (theorem id prefixes): every paper's, less HYB24's C-RASP
#: theorems, whose drops are claims of their own (the drop families of HYB24.T7, T9, NEG); HYB24.G1c, an
#: analytic statement with a falsifier, is in. Here, not in ``drops``, so ``drops --help`` names them
#: without loading the engine.
DROP_PAPERS = ("AM24.", "AM24v2.", "INL25.", "R24.", "HYB24.G1c")
