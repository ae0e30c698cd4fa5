#!/usr/bin/env bash
# The tests need four of Debian's packages: chromium (browser tests), ffmpeg (the media tests
# make and check small videos), poppler-utils (the certificate tests read their PDFs back) and nginx
# (the portal behind deploy/nginx.conf sends its files by sendfile). Installs whichever is missing when running as root with apt-get.
set -euo pipefail
chrome="${CHROME_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chrome" ] || missing+=(chromium)
{ command -v ffmpeg && command -v ffprobe; } >/dev/null 2>&1 || missing+=(ffmpeg)
{ command -v pdftotext && command -v pdffonts && command -v pdftoppm; } >/dev/null 2>&1 || missing+=(poppler-utils)
{ command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1 || missing+=(nginx)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} for the tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
for package in "${missing[@]}"; do
  case "$package" in
    chromium) echo "The browser tests need Chromium at $chrome: install Debian's 'chromium' package or set CHROME_PATH." >&2 ;;
    ffmpeg) echo "The media tests need ffmpeg and ffprobe on PATH: install Debian's 'ffmpeg' package." >&2 ;;
    nginx) echo "The nginx test and bench need nginx (on PATH or in /usr/sbin): install Debian's 'nginx' package." >&2 ;;
    poppler-utils) echo "The certificate tests need pdftotext, pdffonts and pdftoppm on PATH: install Debian's 'poppler-utils' package." >&2 ;;
  esac
done
exit 1
