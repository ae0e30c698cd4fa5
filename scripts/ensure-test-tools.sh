#!/usr/bin/env bash
# Browser tests drive the system Chromium (Debian's package). Installs it when missing and allowed.
set -euo pipefail
chrome="${CHROME_PATH:-/usr/bin/chromium}"
if [ -x "$chrome" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  exit 0
fi
echo "The browser tests need Chromium at $chrome: install Debian's 'chromium' package or set CHROME_PATH." >&2
exit 1
