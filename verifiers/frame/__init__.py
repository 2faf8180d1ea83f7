"""The frame (closed world): a canonical model of each state kind, and the change set a task allows.

A rubric's goal checks say what must be true at the end; the frame says that nothing else changed. Each state
kind has a canonical model: a flat mapping from a *fact key* ("Sales!B4", "Sales#merged", "#sheets") to a
canonical value text in which an app's own save noise (LibreOffice's number-format spelling, `$` in references,
`_xlfn.` prefixes, default colours, its filter-database names) is canonicalised away. The allowed change set of a
task is diff(initial, oracle), derived when the task is made (`derive`), widened only by the freedoms a family
declares. Every change of diff(initial, end state) must lie inside it: a stray label, a new sheet, a reordered
sheet, a merged range, a validation or a hidden row that the task did not ask for fails the frame, and so does an
asked change of the wrong kind (a formula typed as text, a date re-entered as text, a leftover where the oracle
emptied a cell).

Kinds: one module each, registered in verifiers/frame/kinds.py (`xlsx`: verifiers/frame/xlsx.py). The check primitives
that judge a frame live with the other checks
(verifiers/checks/frame.py).
"""
