#!/usr/bin/env bash
# Installs the Debian 12 packages that building and testing 5dpgn-db need, and only those that
# are missing: a machine that has everything is left alone (no apt-get update, no sudo prompt).
#   install-deps.sh          everything `make test` uses: building, the man pages, the browser
#                            tests, the format check
#   install-deps.sh --demo   only what building and `make demo` need (no browser: about 400 MB less)
#   install-deps.sh --fuzz   clang and libFuzzer for `make fuzz`
set -euo pipefail

mode=${1:-}
case $mode in
  "" | --demo | --fuzz) ;;
  *)
    echo "usage: install-deps.sh [--demo | --fuzz]" >&2
    exit 2
    ;;
esac

packages=(
  g++
  cmake
  pkg-config
  libsqlite3-dev
  sqlite3
  libboost-program-options-dev
  libxxhash-dev
  libzstd-dev
  libunistring-dev
  libssl-dev
  libgtest-dev
  googletest
  libcpp-httplib-dev
  zlib1g-dev
  nlohmann-json3-dev
  libarchive-dev
  libjemalloc-dev
)
# Ninja makes builds faster but cmake's default generator works without it. go-md2man makes the
# man pages from docs/ (cmake/manpage.cmake; without it the build skips them and says so). The
# browser tests of 5d-query serve's pages need Chromium, its WebDriver and Selenium; where they
# cannot be installed (no such package for the architecture, no network) those tests are skipped
# and say so.
optional_packages=(ninja-build go-md2man chromium chromium-driver python3-selenium)
# make test also checks the code's format (scripts/check-format.sh, the ctest `format`), and its
# scripted tests (CLI goldens, the server's stress and damage runs, the fuzzing seeds) run python3
# and curl, which a minimal Debian 12 lacks.
if [[ $mode == "" ]]; then
  packages+=(clang-format python3 curl)
fi
# make demo (install-deps.sh --demo): the demo builds and runs the tools (the tests are built too,
# so GoogleTest stays), but needs neither the browser nor the man pages.
if [[ $mode == --demo ]]; then
  optional_packages=(ninja-build)
fi
# make fuzz (install-deps.sh --fuzz): clang and its libFuzzer runtime. Not needed otherwise.
if [[ $mode == --fuzz ]]; then
  packages=(clang libclang-rt-14-dev)
  optional_packages=()
fi

is_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: no dpkg/apt-get here; install these yourself: ${packages[*]}" >&2
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done
missing_optional=()
for package in "${optional_packages[@]}"; do
  is_installed "$package" || missing_optional+=("$package")
done

if [[ ${#missing[@]} -eq 0 && ${#missing_optional[@]} -eq 0 ]]; then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: not root and no sudo; install these yourself:" \
      "${missing[*]} ${missing_optional[*]}" >&2
    [[ ${#missing[@]} -eq 0 ]] && exit 0
    exit 1
  fi
  sudo_cmd=(sudo)
fi

apt_get=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

echo "install-deps: installing ${missing[*]} ${missing_optional[*]}"
# Without fresh lists the installs below may still succeed (or fail and say so).
"${apt_get[@]}" update || echo "install-deps: apt-get update failed; going on with the lists there are" >&2
if [[ ${#missing[@]} -gt 0 ]]; then
  "${apt_get[@]}" install --no-install-recommends "${missing[@]}"
fi
# One at a time, so that a package this system lacks does not keep the others out.
for package in "${missing_optional[@]}"; do
  "${apt_get[@]}" install --no-install-recommends "$package" ||
    echo "install-deps: could not install $package (optional); going on without it" >&2
done
