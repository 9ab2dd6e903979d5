#!/usr/bin/env bash
# Install a headless Chromium, with which tests/test_site.py loads every page of the results site (analysis/site) and
# checks that its tables render, its images load and no script fails. Debian/Ubuntu; run as root. Idempotent: a
# `chromium` already on PATH is kept. Without it the site is still built; only the browser check is skipped.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    echo "chromium already installed: $(command -v chromium)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends chromium
