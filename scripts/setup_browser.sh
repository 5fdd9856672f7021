#!/usr/bin/env bash
# Debian's headless Chromium and its driver for tests/test_serve_browser.py and the serve
# scripts: installed when /usr/bin/chromium or /usr/bin/chromedriver is missing.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
