#!/usr/bin/env bash
# Installs yaml-language-server (the language server behind the YAML
# extensions of VS Code, Neovim, Helix, …) from npm, at the version pinned
# below, and prints the absolute path of its entry point on stdout (progress
# goes to stderr). The editor-schema test (internal/cli/editor_lsp_test.go)
# starts it with `node PATH --stdio` and checks what it says about our
# schema, so the messages the docs promise are the ones editors show.
#
#   scripts/yaml-language-server.sh              # installs once, then reuses it
#   scripts/yaml-language-server.sh --installed  # prints the path if installed, else exits 1
#
# It lives in a cache folder outside the clone, shared by every checkout on
# the machine and kept across fresh clones:
#
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/yaml-language-server-VERSION/
#
# Needs node and npm on PATH; npm is the only thing that downloads (from its
# configured registry). A cold install takes seconds to a minute, a warm one
# returns at once. It installs into a temporary folder that is renamed when
# complete, so an interrupted install is never reused.
set -euo pipefail

version=2.0.0

cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}"
dir="$cache/yaml-language-server-$version"
entry="$dir/node_modules/yaml-language-server/bin/yaml-language-server"

if [[ -f "$entry" ]]; then
  echo "yaml-language-server: reusing $version at $dir" >&2
  echo "$entry"
  exit 0
fi
if [[ "${1:-}" == --installed ]]; then
  echo "yaml-language-server: $version is not installed in $dir" >&2
  exit 1
fi
for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "error: yaml-language-server needs $tool on PATH" >&2
    exit 1
  fi
done

echo "yaml-language-server: installing $version from npm into $dir" >&2
mkdir -p "$cache"
tmp="$(mktemp -d "$cache/yaml-language-server.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
npm install --prefix "$tmp" --no-audit --no-fund --no-save --loglevel=error "yaml-language-server@$version" >&2
if [[ ! -f "$tmp/node_modules/yaml-language-server/bin/yaml-language-server" ]]; then
  echo "error: npm installed yaml-language-server $version without bin/yaml-language-server" >&2
  exit 1
fi
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "$entry"
