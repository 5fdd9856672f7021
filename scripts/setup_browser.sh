#!/usr/bin/env bash
# Debian's headless Chromium and its driver for tests/test_serve_browser.py and the serve
# scripts: installed when /usr/bin/chromium or /usr/bin/chromedriver is missing.
# Needs root (or sudo) and Debian's package mirror. Waits up to 5 minutes for another
# install's package lock; on failure prints one line saying why and exits 1.
set -uo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
fail() { echo "setup_browser: $*" >&2; exit 1; }
command -v apt-get >/dev/null || fail "no apt-get: install Chromium and chromedriver by hand"
if [ "$(id -u)" -eq 0 ]; then
    SUDO=
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
else
    fail "installing chromium needs root or sudo without a password"
fi
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
WAIT="-o DPkg::Lock::Timeout=300"
if ! $SUDO apt-get $WAIT update -qq >"$LOG" 2>&1; then
    fail "apt-get update failed (is the package mirror reachable?): $(grep -m1 -E '^(E|W):' "$LOG" || tail -n1 "$LOG")"
fi
if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get $WAIT install -y -qq chromium chromium-driver \
        >"$LOG" 2>&1; then
    fail "apt-get install chromium chromium-driver failed: $(grep -m1 '^E:' "$LOG" || tail -n1 "$LOG")"
fi
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] \
    || fail "installed, but /usr/bin/chromium or /usr/bin/chromedriver is still missing"
