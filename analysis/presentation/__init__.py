"""What a reader sees beyond the figures, tables, report and site packages: captions, the
generated sections of README and docs/, docs/deviations.md, and the re-decision of a published run. The display
names and number formats every layer shares stay in `analysis.naming` and `analysis.formatting`."""
