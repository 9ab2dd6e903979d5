#!/usr/bin/env bash
# Install what the workflow needs to build paper/report.pdf (latexmk + pdfLaTeX and the packages the generated
# report uses) and pdftoppm, with which tests and readers render its pages to PNG. Debian/Ubuntu; run as root.
# Without LaTeX the workflow still writes every figure, table and report.tex; only report.pdf is skipped.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
    latexmk texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended poppler-utils
