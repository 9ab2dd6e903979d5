"""The reproduction report, generated from what a run wrote into its paper directory.

`python -m analysis.report --paper PAPER [--scaling SCALING.csv]` reads PAPER/claims.csv, PAPER/tables/*.csv and
PAPER/figures/* (`inputs`), writes one section per part of the run that was produced, with sentences whose numbers
come from those tables (`sections`), and renders it into PAPER/report.tex with the preamble in `template.tex`
(`latex`). A part that was not run has no section; no number in the text is typed by hand.
"""
