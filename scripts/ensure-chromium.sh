#!/usr/bin/env bash
# Installs Debian's chromium and chromium-driver when they are missing (the browser tests
# drive /usr/bin/chromium through Playwright; nothing downloads a browser of its own).
set -eu
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  echo "Chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-chromium: chromium is missing and this user cannot install it (apt-get install chromium chromium-driver)" >&2
    exit 1
  fi
fi
echo "Installing chromium and chromium-driver from Debian"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
/usr/bin/chromium --version
