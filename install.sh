#!/bin/sh
# Installs poly: downloads the release archive for this machine, refuses it
# unless its SHA-256 matches the release's sha256sums.txt, and puts the program
# in place atomically (written beside the target, then renamed over it).
#
#   curl -fsSL https://github.com/Goldziher/poly/releases/latest/download/install.sh | sh
#   curl -fsSL .../install.sh | POLY_VERSION=0.1.0 sh
#
# Environment:
#   POLY_VERSION        version to install ("0.1.0" or "v0.1.0"); default: the latest release
#   POLY_INSTALL_DIR    directory for the poly program; default: $HOME/.local/bin
#   POLY_DOWNLOAD_BASE  where releases are downloaded from (a mirror, or a test server);
#                       default: https://github.com/Goldziher/poly/releases/download
#
# A version's files are at <base>/v<version>/: poly-<target>.tar.gz and
# sha256sums.txt. The latest version is the tag GitHub's releases/latest points
# to, or with POLY_DOWNLOAD_BASE set, the first line of <base>/latest.txt.
#
# Whatever fails (download, checksum, extraction, a program that does not run),
# the previously installed poly is left untouched and no partial file remains.
# See docs/install.md.

set -eu

REPO="Goldziher/poly"
DEFAULT_BASE="https://github.com/$REPO/releases/download"

say() {
  printf 'install.sh: %s\n' "$*" >&2
}

die() {
  say "error: $*"
  exit 1
}

has() {
  command -v "$1" >/dev/null 2>&1
}

# download URL FILE: fetch URL into FILE; fails on HTTP errors.
download() {
  if has curl; then
    curl -fsSL --retry 2 --connect-timeout 20 -o "$2" "$1"
  elif has wget; then
    wget -q -O "$2" "$1"
  else
    die "neither curl nor wget is installed"
  fi
}

# latest_github: the tag of the latest GitHub release.
latest_github() {
  if has curl; then
    url=$(curl -fsSLI -o /dev/null -w '%{url_effective}' "https://github.com/$REPO/releases/latest") || return 1
    printf '%s\n' "${url##*/}"
  else
    wget -q -O - "https://api.github.com/repos/$REPO/releases/latest" |
      sed -n 's/.*"tag_name"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -n 1
  fi
}

sha256_of() {
  if has sha256sum; then
    sha256sum "$1" | awk '{print $1}'
  elif has shasum; then
    shasum -a 256 "$1" | awk '{print $1}'
  elif has openssl; then
    openssl dgst -sha256 -r "$1" | awk '{print $1}'
  else
    die "no SHA-256 program found (sha256sum, shasum or openssl): cannot verify the download"
  fi
}

detect_target() {
  os=$(uname -s)
  arch=$(uname -m)
  case "$arch" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) die "no poly build for the $arch architecture" ;;
  esac
  case "$os" in
    Linux)
      if ! getconf GNU_LIBC_VERSION >/dev/null 2>&1 && ldd --version 2>&1 | grep -qi musl; then
        die "poly is built for glibc Linux; this system uses musl libc"
      fi
      printf '%s\n' "$arch-unknown-linux-gnu"
      ;;
    Darwin)
      # An x86_64 shell under Rosetta on Apple silicon: install the native build.
      if [ "$arch" = x86_64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
        arch=aarch64
      fi
      printf '%s\n' "$arch-apple-darwin"
      ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "on Windows, use install.ps1 (see docs/install.md)"
      ;;
    *) die "no poly build for $os" ;;
  esac
}

tmp=""
staged=""
cleanup() {
  if [ -n "$staged" ]; then rm -f "$staged"; fi
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
}

main() {
  trap cleanup EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM

  base="${POLY_DOWNLOAD_BASE:-$DEFAULT_BASE}"
  base="${base%/}"
  target=$(detect_target)
  archive="poly-$target.tar.gz"

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t poly-install) || die "cannot create a temporary directory"

  version="${POLY_VERSION:-}"
  if [ -z "$version" ] || [ "$version" = latest ]; then
    if [ -n "${POLY_DOWNLOAD_BASE:-}" ]; then
      download "$base/latest.txt" "$tmp/latest.txt" || die "cannot read the latest version from $base/latest.txt"
      version=$(head -n 1 "$tmp/latest.txt" | tr -d ' \t\r')
    else
      version=$(latest_github) || die "cannot find the latest release of $REPO"
    fi
    [ -n "$version" ] || die "cannot find the latest version"
  fi
  version="${version#v}"
  if ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$'; then
    die "'$version' is not a version (expected e.g. 0.1.0)"
  fi
  tag="v$version"
  url="$base/$tag"

  say "installing poly $version for $target from $url/"
  download "$url/$archive" "$tmp/$archive" || die "cannot download $url/$archive"
  download "$url/sha256sums.txt" "$tmp/sha256sums.txt" ||
    die "cannot download $url/sha256sums.txt: refusing to install an archive that cannot be verified"

  expected=$(tr -d '\r' <"$tmp/sha256sums.txt" |
    awk -v name="$archive" '{ f = $2; sub(/^\*/, "", f); if (f == name) print tolower($1) }' | sort -u)
  case "$expected" in
    "") die "sha256sums.txt has no line for $archive: refusing to install it" ;;
    *"
"*) die "sha256sums.txt has conflicting lines for $archive: refusing to install it" ;;
  esac
  if ! printf '%s\n' "$expected" | grep -Eq '^[0-9a-f]{64}$'; then
    die "sha256sums.txt has a malformed checksum for $archive: refusing to install it"
  fi
  actual=$(sha256_of "$tmp/$archive" | tr 'A-F' 'a-f')
  if [ "$actual" != "$expected" ]; then
    die "checksum mismatch for $archive (expected $expected, got $actual): refusing to install it"
  fi

  mkdir "$tmp/x"
  tar -xzf "$tmp/$archive" -C "$tmp/x" poly 2>/dev/null || die "$archive does not contain the poly program"
  if [ ! -f "$tmp/x/poly" ] || [ -L "$tmp/x/poly" ]; then
    die "$archive does not contain the poly program as a regular file"
  fi

  dir="${POLY_INSTALL_DIR:-}"
  if [ -z "$dir" ]; then
    [ -n "${HOME:-}" ] || die "HOME is not set: set POLY_INSTALL_DIR"
    dir="$HOME/.local/bin"
  fi
  mkdir -p "$dir" || die "cannot create $dir"
  dest="$dir/poly"
  if [ -d "$dest" ] && [ ! -L "$dest" ]; then die "$dest is a directory"; fi

  # Stage beside the target (same file system, so the rename is atomic).
  staged=$(mktemp "$dir/.poly-install.XXXXXX") || die "cannot write to $dir"
  cp "$tmp/x/poly" "$staged" || die "cannot write to $dir"
  chmod 755 "$staged" || die "cannot make $staged executable"
  if ! reported=$("$staged" --version 2>&1); then
    die "the downloaded poly does not run on this machine: $reported"
  fi
  case "$reported" in
    "poly $version" | "poly $version "*) ;;
    *) die "the downloaded program reports '$reported', not poly $version: refusing to install it" ;;
  esac
  mv -f "$staged" "$dest" || die "cannot move the new poly into place at $dest"
  staged=""

  installed=$("$dest" --version) || die "$dest does not run after installing"
  say "installed $dest"
  printf '%s\n' "$installed"

  case ":${PATH:-}:" in
    *":$dir:"*)
      found=$(command -v poly 2>/dev/null || true)
      if [ -n "$found" ] && [ "$found" != "$dest" ]; then
        say "note: 'poly' on your PATH is $found, which comes before $dest"
      fi
      ;;
    *) say "note: $dir is not on your PATH; add it, e.g.: export PATH=\"$dir:\$PATH\"" ;;
  esac
}

main "$@"
