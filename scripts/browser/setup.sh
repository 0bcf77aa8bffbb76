#!/usr/bin/env bash
# Installs the browser the web app's tests drive: Debian's Chromium at
# /usr/bin/chromium (Playwright is given its path; it never downloads one).
# Idempotent: does nothing when it is there. Needs root to install.
set -euo pipefail

chromium=${SPARROW_CHROMIUM:-/usr/bin/chromium}
log() { printf 'browser-setup: %s\n' "$*"; }

if [ -x "$chromium" ]; then
  log "$("$chromium" --version 2>/dev/null || echo "$chromium") is installed"
  exit 0
fi
[ "$(id -u)" = 0 ] || { printf 'browser-setup: error: run as root to install chromium\n' >&2; exit 1; }
log "installing chromium from Debian's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
log "$("$chromium" --version) installed"
