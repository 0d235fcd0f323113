#!/usr/bin/env bash
# The release dry run: GoReleaser (pinned in tools/goreleaser, built once by
# scripts/build-goreleaser.sh) checks .goreleaser.yml and builds a snapshot
# release, signing and publishing nothing, from a copy of the files git
# tracks (what a fresh clone holds: nothing generated, nothing git-ignored)
# in a temporary folder; then the registry's layout is checked:
#
#   terraform-provider-celyaml_VERSION_OS_ARCH.zip, each holding
#     terraform-provider-celyaml_vVERSION(.exe), LICENSE, README.md and
#     CHANGELOG.md;
#   terraform-provider-celyaml_VERSION_SHA256SUMS, listing every zip and
#     terraform-provider-celyaml_VERSION_manifest.json (the bytes of
#     terraform-registry-manifest.json), and matching the files;
#   celyaml_VERSION_OS_ARCH.tar.gz (zip on Windows), holding celyaml, the
#     LICENSE, README.md, CHANGELOG.md and the editor schema, and
#     the linux/amd64 celyaml carries the built-in schemas
#     (scripts/check-builtins.sh).
#
#   scripts/release-snapshot.sh                  # linux/amd64 and darwin/arm64
#   scripts/release-snapshot.sh --all-platforms  # every platform of .goreleaser.yml
#
# By default only two platforms are built (each costs a cross-compilation of
# the provider and of celyaml, some CPU-minutes on a cold build cache; all
# fourteen would take most of CI's budget): linux/amd64, which runs here, and
# darwin/arm64, another OS and architecture. --all-platforms builds what a
# release builds. RELEASE_OUT=DIR keeps the dist folder there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

all=0
case "${1:-}" in
  "") ;;
  --all-platforms) all=1 ;;
  *)
    echo "usage: $0 [--all-platforms]" >&2
    exit 2
    ;;
esac

gr="$(scripts/build-goreleaser.sh)"
work="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-release.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# A clone (GoReleaser reads the commit from git), with the working tree's
# tracked and new, not ignored, files over it.
git clone -q --no-checkout --shared "$root" "$work/src"
git -C "$work/src" checkout -q "$(git rev-parse HEAD)"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [[ -e "$f" ]] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$work/src"
# Files deleted in the working tree stay deleted.
git ls-files -z --deleted | (cd "$work/src" && xargs -0 -r rm -f --)

cd "$work/src"
if ((!all)); then
  # `targets` replaces goos/goarch (and their ignore list) in each build.
  awk '/^[a-z]/ { inbuilds = ($0 == "builds:") }
       { print }
       inbuilds && /^  - id: / { print "    targets: [linux_amd64_v1, darwin_arm64]" }' \
    .goreleaser.yml >"$work/goreleaser.yml"
  mv "$work/goreleaser.yml" .goreleaser.yml
fi

start=$SECONDS
echo "release-snapshot: goreleaser check" >&2
"$gr" check
echo "release-snapshot: goreleaser release --snapshot --clean --skip=publish,sign ($( ((all)) && echo every platform || echo linux/amd64 and darwin/arm64))" >&2
"$gr" release --snapshot --clean --skip=publish,sign
echo "release-snapshot: built in $((SECONDS - start))s" >&2

dist="$work/src/dist"
fail() {
  echo "release-snapshot: $*" >&2
  exit 1
}
version="$(sed -nE 's/.*"version":"([^"]+)".*/\1/p' "$dist/metadata.json")"
[[ -n "$version" ]] || fail "no version in dist/metadata.json"
p="terraform-provider-celyaml_$version"

# The platforms built.
if ((all)); then
  platforms="$(ls "$dist" | sed -nE "s/^${p}_([a-z0-9]+_[a-z0-9]+)\.zip$/\1/p")"
  [[ "$(wc -l <<<"$platforms")" -eq 14 ]] || fail "expected 14 provider zips, found: $platforms"
else
  platforms=$'darwin_arm64\nlinux_amd64'
fi

sums="$dist/${p}_SHA256SUMS"
[[ -f "$sums" ]] || fail "no ${p}_SHA256SUMS in dist: $(ls "$dist")"
while IFS= read -r plat; do
  zip="$dist/${p}_$plat.zip"
  [[ -f "$zip" ]] || fail "no $(basename "$zip") in dist: $(ls "$dist")"
  exe="terraform-provider-celyaml_v$version"
  [[ "$plat" == windows_* ]] && exe="$exe.exe"
  # The provider's binary, beside the documents GoReleaser adds (the
  # license, which MPL-2.0 asks to ship, the README and the changelog).
  got="$(unzip -Z1 "$zip" | LC_ALL=C sort | tr '\n' ' ')"
  want="CHANGELOG.md LICENSE README.md $exe "
  [[ "$got" == "$want" ]] || fail "$(basename "$zip") holds $got; want $want"
  grep -qE "^[0-9a-f]{64}  $(basename "$zip")\$" "$sums" || fail "SHA256SUMS does not list $(basename "$zip")"
  ls "$dist"/celyaml_"${version}_$plat".* >/dev/null 2>&1 || fail "no celyaml archive for $plat"
done <<<"$platforms"

manifest="${p}_manifest.json"
want="$(sha256sum terraform-registry-manifest.json | cut -d' ' -f1)"
grep -qx "$want  $manifest" "$sums" || fail "SHA256SUMS does not list $manifest with the hash of terraform-registry-manifest.json"
# Every file SHA256SUMS lists that is in dist has that hash (the manifest is
# uploaded from terraform-registry-manifest.json under its release name).
cp terraform-registry-manifest.json "$work/$manifest"
(cd "$dist" && cp "$work/$manifest" . && sha256sum --quiet -c "$(basename "$sums")") || fail "SHA256SUMS does not match the files"

mkdir "$work/cli"
tar -xzf "$dist/celyaml_${version}_linux_amd64.tar.gz" -C "$work/cli"
for f in celyaml LICENSE README.md CHANGELOG.md schemas/celyaml.schema.json; do
  [[ -f "$work/cli/$f" ]] || fail "celyaml_${version}_linux_amd64.tar.gz holds no $f"
done
"$root/scripts/check-builtins.sh" "$work/cli/celyaml"

if [[ -n "${RELEASE_OUT:-}" ]]; then
  rm -rf "$RELEASE_OUT" && cp -R "$dist" "$RELEASE_OUT"
fi
echo "release-snapshot: $version: $(wc -l <<<"$platforms") platforms in the registry's layout, with SHA256SUMS, the manifest, and celyaml carrying the built-in schemas" >&2
