#!/usr/bin/env bash
# Installs the Debian packages the tests use when they are missing: chromium and chromium-driver
# (the browser tests drive /usr/bin/chromium through Playwright; nothing downloads a browser of
# its own) and faketime (a clock test runs a worker whose clock is fast).
set -eu
missing=()
{ [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || missing+=(chromium chromium-driver)
command -v faketime >/dev/null 2>&1 || missing+=(faketime)
if [ ${#missing[@]} -eq 0 ]; then
  echo "Chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n1); faketime: $(command -v faketime)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-packages: missing ${missing[*]} and this user cannot install them (apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi
echo "Installing from Debian: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
/usr/bin/chromium --version
command -v faketime
