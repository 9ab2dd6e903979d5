"""One module per figure; each has `main(argv)` and runs as `python -m analysis.figures.<name>`."""
