"""Publishing what proofkit found: citations (``cite``), the verdict table in paper formats and figures
(``report``), and evidence bundles that another machine can verify (``bundle``, ``verify-bundle``).

One job per module: ``bib`` (the papers' BibTeX entries), ``env`` (versions and git commit), ``records``
(stored counterexample records), ``table`` (verdict rows), ``render`` (Markdown, LaTeX, CSV, JSON),
``figures`` (matplotlib, the optional ``plot`` extra), ``spec_json`` (a theorem's specification),
``bundle`` (build, hash, load), ``verify`` (re-derive a bundle and compare), ``compare`` (field-by-field
differences, escaped names), ``cite`` (what to cite), ``cli`` (the subcommands).
"""
