"""One module per table; each has `main(argv)` and runs as `python -m analysis.tables.<name>`."""
