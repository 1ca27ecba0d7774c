# Finds the retry binary the action runs; sourced by run.sh, whose fail and
# annotate it uses. Written for bash 3.2 too (a self-hosted macOS runner's).
# shellcheck shell=bash
#
# A retry on PATH is used when the version input is empty and the action
# was not used at a release tag (a branch, a commit, or ./). Otherwise the
# release archive for this runner is downloaded, checked against the
# release's checksums.txt, and kept in the runner's tool cache.
#
# RETRY_ACTION_DOWNLOAD_URL replaces the releases' base URL
# (https://github.com/OWNER/REPO/releases/download) and RETRY_ACTION_GIT_URL
# the repository asked for its tags, for a mirror or a test's fake release.

# release_tag REF succeeds when REF names a release: v1, v1.2, v1.2.3, v1.2.3-rc.1.
release_tag() {
  [[ $1 =~ ^v[0-9]+(\.[0-9]+(\.[0-9]+(-[0-9A-Za-z.-]+)?)?)?$ ]]
}

# repository prints OWNER/NAME of the action's repository.
repository() {
  printf '%s\n' "${RETRY_ACTION_REPOSITORY:-b0a38808/retry}"
}

# tag_release REF prints the version tag of release tag REF. A moving tag
# (v1, v1.2) names the newest release whose tag is on the same commit, so
# that the binary matches the action's own files.
tag_release() {
  local ref=$1 url found
  if [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
    printf '%s\n' "$ref"
    return
  fi
  url=${RETRY_ACTION_GIT_URL:-${GITHUB_SERVER_URL:-https://github.com}/$(repository).git}
  found=$(git ls-remote --tags "$url" "$ref" "$ref.*" | awk -v ref="$ref" '
    {
      name = $2; sub(/^refs\/tags\//, "", name)
      peeled = sub(/\^\{\}$/, "", name)
      if (peeled || !(name in commit)) commit[name] = $1
    }
    END {
      for (n in commit)
        if (n ~ /^v[0-9]+\.[0-9]+\.[0-9]+$/ && index(n, ref ".") == 1 && commit[n] == commit[ref])
          print n
    }' | sort -t. -k1.2,1n -k2,2n -k3,3n | tail -n 1) || true
  if [ -z "$found" ]; then
    fail "no release has the commit of tag $ref in $url: give the version input, such as v1.2.3"
    return 1
  fi
  printf '%s\n' "$found"
}

# commit_ref REF succeeds when REF is a full commit SHA, as a pinned uses: has it.
commit_ref() {
  [[ $1 =~ ^[0-9a-f]{40}$ ]]
}

# commit_release SHA sets release to the version tag of the release whose
# tag points at commit SHA (an annotated tag through the commit it peels
# to): the newest when there are more, a final release before a
# pre-release. With none, or when the tags cannot be listed, it fails and
# sets why.
commit_release() {
  local sha=$1 url tags err
  release=''
  url=${RETRY_ACTION_GIT_URL:-${GITHUB_SERVER_URL:-https://github.com}/$(repository).git}
  err=$(mktemp "$temp/retry-git-XXXXXX") || { why="could not make a file in $temp"; return 1; }
  if ! tags=$(git ls-remote --tags "$url" 2>"$err"); then
    why="git ls-remote --tags $url failed: $(tail -n 1 "$err")"
    rm -f "$err"
    return 1
  fi
  rm -f "$err"
  release=$(printf '%s\n' "$tags" | awk -v sha="$sha" '
    {
      name = $2; sub(/^refs\/tags\//, "", name)
      peeled = sub(/\^\{\}$/, "", name)
      if (peeled || !(name in commit)) commit[name] = $1
    }
    END {
      for (n in commit)
        if (commit[n] == sha && n ~ /^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$/) {
          split(substr(n, 2), v, /[.-]/)
          print (index(n, "-") ? 0 : 1), v[1], v[2], v[3], n
        }
    }' | sort -n -k1,1 -k2,2 -k3,3 -k4,4 | tail -n 1 | awk '{ print $5 }')
  if [ -z "$release" ]; then
    why="no release tag points at it in $url"
    return 1
  fi
}

# action_release REF prints the release that the action's ref REF names (a
# version tag, a moving tag or the commit of a release), and fails when it
# names none; it reports nothing.
action_release() {
  local release why
  if commit_ref "$1"; then
    commit_release "$1" && printf '%s\n' "$release"
  elif release_tag "$1"; then
    tag_release "$1" 2>/dev/null
  else
    return 1
  fi
}

# sha256 FILE prints FILE's SHA-256 in hex.
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{ print $1 }'
  else
    shasum -a 256 "$1" | awk '{ print $1 }'
  fi
}

# platform prints the release's OS and architecture names for this runner,
# and the tool cache's name of the architecture.
platform() {
  local os arch
  case ${RUNNER_OS:-$(uname -s)} in
    Linux) os=linux ;;
    macOS | Darwin) os=darwin ;;
    Windows | MINGW* | MSYS*) os=windows ;;
    *) fail "no retry release is built for the runner's OS, ${RUNNER_OS:-$(uname -s)}"; return 1 ;;
  esac
  case ${RUNNER_ARCH:-$(uname -m)} in
    X64 | x86_64 | amd64) arch=amd64 ;;
    ARM64 | arm64 | aarch64) arch=arm64 ;;
    *) fail "no retry release is built for the runner's architecture, ${RUNNER_ARCH:-$(uname -m)}"; return 1 ;;
  esac
  printf '%s %s %s\n' "$os" "$arch" "$(if [ "$arch" = amd64 ]; then echo x64; else echo arm64; fi)"
}

# download URL FILE fetches URL into FILE.
download() {
  if ! curl -fsSL --retry 3 -o "$2" "$1"; then
    fail "could not download $1"
    return 1
  fi
}

# fetch_release VERSION sets RETRY_BIN to the binary of release VERSION
# (v1.2.3 or 1.2.3), from the tool cache or downloaded into it.
fetch_release() {
  local tag number os arch toolarch exe archive cache base work want got
  tag=v${1#v}
  number=${tag#v}
  read -r os arch toolarch < <(platform) || return 1
  [ -n "$os" ] || return 1
  exe=retry
  archive=retry_${number}_${os}_${arch}.tar.gz
  if [ "$os" = windows ]; then
    exe=retry.exe
    archive=retry_${number}_${os}_${arch}.zip
  fi
  cache=${RUNNER_TOOL_CACHE:-$temp}/retry/$number/$toolarch
  if [ -f "$cache.complete" ] && [ -x "$cache/$exe" ]; then
    RETRY_BIN=$cache/$exe
    return
  fi
  base=${RETRY_ACTION_DOWNLOAD_URL:-${GITHUB_SERVER_URL:-https://github.com}/$(repository)/releases/download}
  work=$(mktemp -d "$temp/retry-download-XXXXXX") || return 1
  echo "Downloading retry $tag for $os/$arch"
  download "$base/$tag/$archive" "$work/$archive" || return 1
  download "$base/$tag/checksums.txt" "$work/checksums.txt" || return 1
  want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$work/checksums.txt")
  if [ -z "$want" ]; then
    fail "the checksums.txt of retry $tag has no line for $archive"
    return 1
  fi
  got=$(sha256 "$work/$archive")
  if [ "$want" != "$got" ]; then
    fail "$archive does not match the checksums.txt of retry $tag: its SHA-256 is $got, not $want"
    return 1
  fi
  mkdir -p "$work/x" "$cache" || return 1
  if [ "$os" != windows ]; then
    (cd "$work/x" && tar -xzf "../$archive" "$exe")
  elif command -v unzip >/dev/null 2>&1; then
    unzip -q -o "$work/$archive" "$exe" -d "$work/x"
  else
    # Windows' own tar (bsdtar) reads zip archives; Git Bash's does not.
    "$(cygpath -u "${SYSTEMROOT:-${SystemRoot:-C:\\Windows}}")/System32/tar.exe" -xf "$(cygpath -w "$work/$archive")" -C "$(cygpath -w "$work/x")" "$exe"
  fi || {
    fail "could not extract $exe from $archive"
    return 1
  }
  # Into place by a rename in the cache's directory, so that another job
  # on this machine never runs half a binary.
  if ! { mv -f "$work/x/$exe" "$cache/.$exe.$$" && chmod +x "$cache/.$exe.$$" &&
    mv -f "$cache/.$exe.$$" "$cache/$exe" && touch "$cache.complete"; }; then
    fail "could not put retry $tag into $cache"
    return 1
  fi
  rm -rf "$work"
  RETRY_BIN=$cache/$exe
}

# resolve_binary VERSION REF sets RETRY_BIN to the retry to run.
resolve_binary() {
  local version=$1 ref=$2 release='' why=''
  # A commit pinned in uses: is a release when a release's tag points at
  # it; otherwise it is used as a branch is.
  if [ -z "$version" ] && commit_ref "$ref"; then
    if commit_release "$ref"; then
      echo "The action's commit $ref is retry $release"
      fetch_release "$release"
      return
    fi
    if ! RETRY_BIN=$(command -v retry); then
      fail "the action's commit $ref is no release of $(repository) ($why), and retry is not on PATH: pin the commit of a release tag, give the version input (such as v1.2.3), or install retry in an earlier step"
      return 1
    fi
    return
  fi
  if [ -z "$version" ] && ! release_tag "$ref"; then
    if ! RETRY_BIN=$(command -v retry); then
      fail "retry is not on PATH: install it in an earlier step, give the version input, or use the action at a release tag (b0a38808/retry@v1)"
      return 1
    fi
    return
  fi
  if [ -z "$version" ]; then
    version=$(tag_release "$ref") || return 1
  fi
  fetch_release "$version"
}
