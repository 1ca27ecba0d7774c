#!/usr/bin/env bash
# Packages that coexist: builds the deb with goreleaser's snapshot from a
# clone of the committed tree, installs it with apt-get on a machine where
# Debian's unrelated "retry" package (which owns /usr/bin/retry too) is
# installed, checks that /usr/bin/retry and retry(1) are then ours, removes
# ours, checks that dpkg and apt are left sane, and puts Debian's retry
# back.
#
# It changes the machine (installs and removes packages, as root), so it
# is not part of `go test ./...`, and runs only with RETRY_PACKAGE_TEST=1.
# apt and dpkg calls hold /tmp/apt.lock, as every use of apt on a shared
# machine should. It takes a few minutes: goreleaser builds every target.
# Usage: RETRY_PACKAGE_TEST=1 bench/packages.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${RETRY_PACKAGE_TEST:-}" != 1 ]; then
  echo "packages.sh installs and removes packages: set RETRY_PACKAGE_TEST=1 to run it" >&2
  exit 2
fi
[ "$(id -u)" = 0 ] || { echo "packages.sh needs root (apt-get install)" >&2; exit 2; }
command -v dpkg >/dev/null || { echo "packages.sh needs a Debian system (dpkg, apt-get)" >&2; exit 2; }

goreleaser_version=v2.15.1 # the newest that builds with this Go
ours=retry-cmd             # .goreleaser.yaml, nfpms.package_name
apt() { flock /tmp/apt.lock apt-get "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

work=$(mktemp -d)
restore() {
  # Whatever happened, leave Debian's retry installed, as it was found.
  if dpkg-query -W -f='${Status}' "$ours" 2>/dev/null | grep -q 'ok installed'; then
    apt remove -y -qq "$ours" >/dev/null 2>&1 || true
  fi
  if [ "$had_debian_retry" = 1 ] && ! dpkg-query -W -f='${Status}' retry 2>/dev/null | grep -q 'ok installed'; then
    apt install -y -qq retry >/dev/null 2>&1 || echo "could not reinstall Debian's retry" >&2
  fi
  rm -rf "$work"
}
had_debian_retry=0
trap restore EXIT

step "goreleaser"
goreleaser=$(command -v goreleaser || echo "$(go env GOPATH)/bin/goreleaser")
if [ ! -x "$goreleaser" ]; then
  GOFLAGS= go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version"
fi
"$goreleaser" --version | grep -m1 GitVersion || true

step "build the deb: goreleaser release --snapshot, from a clone of HEAD"
git clone -q . "$work/src"
(cd "$work/src" && "$goreleaser" release --snapshot --clean >"$work/goreleaser.log" 2>&1) ||
  { tail -30 "$work/goreleaser.log"; fail "goreleaser release --snapshot"; }
arch=$(dpkg --print-architecture)
deb=$(find "$work/src/dist" -maxdepth 1 -name "${ours}_*_${arch}.deb" | head -1)
[ -n "$deb" ] || { ls "$work/src/dist"; fail "no ${ours}_*_${arch}.deb in dist/"; }
ls "$work/src/dist"/*.rpm >/dev/null || fail "no rpm in dist/"
(cd "$work/src/dist" && ls ./*.deb ./*.rpm)
dpkg-deb -f "$deb" Package Version Conflicts Replaces
[ "$(dpkg-deb -f "$deb" Package)" = "$ours" ] || fail "the deb is not named $ours"
[ "$(dpkg-deb -f "$deb" Conflicts)" = retry ] || fail "the deb does not conflict with retry"
[ "$(dpkg-deb -f "$deb" Replaces)" = retry ] || fail "the deb does not replace retry"
version=$(dpkg-deb -f "$deb" Version)
for rpm in "$work/src/dist"/*.rpm; do
  if command -v rpm >/dev/null; then
    rpm -qp --conflicts "$rpm" | grep -qx retry || fail "$rpm does not conflict with retry"
  else
    echo "no rpm command: the rpm's Conflicts is not checked"
  fi
done

step "Debian's retry is installed"
if ! dpkg-query -W -f='${Status}' retry 2>/dev/null | grep -q 'ok installed'; then
  apt install -y -qq retry >/dev/null
fi
had_debian_retry=1
[ "$(dpkg -S /usr/bin/retry | cut -d: -f1)" = retry ] || fail "/usr/bin/retry is not Debian's retry's"

step "apt-get install ./$(basename "$deb")"
cp "$deb" "$work/ours.deb"
apt install -y -q -o Dpkg::Use-Pty=0 "$work/ours.deb" 2>&1 | tee "$work/install.log"
grep -q 'downgrading' "$work/install.log" && fail "apt took ours for a downgrade of Debian's retry"
grep -A2 'will be REMOVED' "$work/install.log" | grep -qw retry || fail "apt did not say that it removes Debian's retry"
dpkg-query -W -f='${Status}' retry 2>/dev/null | grep -q 'ok installed' && fail "Debian's retry is still installed"

step "/usr/bin/retry and retry(1) are ours"
[ "$(dpkg -S /usr/bin/retry | cut -d: -f1)" = "$ours" ] || fail "/usr/bin/retry belongs to $(dpkg -S /usr/bin/retry)"
got=$(retry --version)
echo "$got"
# goreleaser's snapshot version is 0.0.1-next; its deb writes 0.0.1~next.
[ "$got" = "retry ${version/\~/-}" ] || fail "retry --version says \"$got\", want \"retry ${version/\~/-}\""
retry explain -- true >/dev/null || fail "retry explain does not run"
page=$(man -w retry)
[ "$(dpkg -S "$page" | cut -d: -f1)" = "$ours" ] || fail "$page belongs to $(dpkg -S "$page")"
MANPAGER=cat MANWIDTH=80 man retry 2>/dev/null | grep -q -- '--deadline' || fail "man retry is not ours: no --deadline in it"
man -w retry-explain >/dev/null || fail "no retry-explain(1)"
[ -f /usr/share/bash-completion/completions/retry ] || fail "no bash completion"
grep -q '^MIT License$' "/usr/share/doc/$ours/copyright" || fail "no MIT licence in /usr/share/doc/$ours/copyright"

step "remove $ours: the system is left sane"
apt remove -y -q -o Dpkg::Use-Pty=0 "$ours" 2>&1 | tail -3
[ ! -e /usr/bin/retry ] || fail "/usr/bin/retry is still there"
[ ! -e "$page" ] || fail "$page is still there"
dpkg-query -W -f='${Status}' "$ours" 2>/dev/null | grep -q 'ok installed' && fail "$ours is still installed"
[ -z "$(flock /tmp/apt.lock dpkg --audit)" ] || fail "dpkg --audit finds problems"
apt check -qq || fail "apt-get check fails"

step "Debian's retry goes back"
apt install -y -qq retry >/dev/null
[ "$(dpkg -S /usr/bin/retry | cut -d: -f1)" = retry ] || fail "/usr/bin/retry is not Debian's retry's after reinstalling it"
retry --version | grep -q '^retry 1\.' || echo "note: Debian's retry says $(retry --version 2>&1 | head -1)"

echo "PASS: $ours $version installs over Debian's retry, and leaves when removed"
