#!/usr/bin/env bash
# Browser tests of 5d-query serve's pages (tests/browser/browser_test.py) in headless Chromium,
# run by ctest. They need the Debian packages chromium, chromium-driver and python3-selenium,
# which scripts/install-deps.sh installs; where they are missing (they could not be installed),
# the tests are skipped with exit status 77 and a message saying what is missing.
# Usage: tests/browser/run.sh BUILD_DIR [--screenshots DIR] [unittest arguments]
set -u
here=$(cd "${0%/*}" && pwd)
missing=()
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || missing+=(chromium)
chromedriver=$(command -v chromedriver || true)
[ -n "$chromedriver" ] || missing+=(chromium-driver)
# Debian's python3 has python3-selenium; another python3 first in PATH (pyenv, a venv) may not.
python=""
for candidate in /usr/bin/python3 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import selenium' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || missing+=(python3-selenium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "SKIPPED: the browser tests need ${missing[*]} (Debian packages; scripts/install-deps.sh" \
    "installs them where they can be installed)"
  exit 77
fi
exec "$python" "$here/browser_test.py" --build "$1" --chromium "$chromium" \
  --chromedriver "$chromedriver" "${@:2}"
