#!/usr/bin/env bash
# Assembles backplane-sdk.tar.gz (the layout is in docs/building.md, "The SDK package"). Called by
# //package:backplane_sdk as
#   make_sdk.sh OUT.tar.gz --version_h=F --lib=F --cuda_plugin=F --conformance=F --ops_txt=F
#     --cmake_config=F --cmake_config_version=F --pkgconfig=F --doc_links=F --headers F...
#     --samples F... --docs F...
# Every file's place in the package comes from its option, not from its Bazel path. --docs are
# Markdown files of the repository (docs/X.md goes to share/doc/backplane/X.md, package/README.md
# to share/doc/backplane/README.md); their links, and those of the samples' Markdown, are rewritten
# for their places in the package by doc_links.pl (--doc_links).
set -euo pipefail
umask 022

die() {
  echo "make_sdk.sh: $*" >&2
  exit 1
}

out=$1
shift
declare -A file=()
headers=()
samples=()
docs=()
list=
for arg in "$@"; do
  case "$arg" in
    --headers | --samples | --docs) list=${arg#--} ;;
    --*=*)
      key=${arg%%=*}
      file[${key#--}]=${arg#*=}
      ;;
    *)
      case "$list" in
        headers) headers+=("$arg") ;;
        samples) samples+=("$arg") ;;
        docs) docs+=("$arg") ;;
        *) die "unexpected argument '$arg'" ;;
      esac
      ;;
  esac
done
for key in version_h lib cuda_plugin conformance ops_txt cmake_config cmake_config_version \
  pkgconfig doc_links; do
  [[ -n "${file[$key]:-}" ]] || die "missing --$key=FILE"
done

# One source of truth for the version: the constants of sdk/version.h.
version_part() {
  sed -n "s/^inline constexpr int kVersion$1 = \([0-9][0-9]*\);.*/\1/p" "${file[version_h]}"
}
version="$(version_part Major).$(version_part Minor).$(version_part Patch)"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  die "cannot read the version from ${file[version_h]} (got '$version')"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
sdk=$stage/backplane-sdk

# put MODE DEST_DIR FILE...: copies with a fixed mode (Bazel's outputs are read-only).
put() {
  local mode=$1 dir=$sdk/$2
  shift 2
  mkdir -p "$dir"
  install -m "$mode" "$@" "$dir"
}

# The binaries without their DWARF (about 240 MB of their 255): the symbol tables stay, so
# backtraces still name functions.
put_binary() {
  put 755 "$1" "$2"
  strip --strip-debug "$sdk/$1/$(basename "$2")"
}

# fill TEMPLATE DEST: the template with @VERSION@ replaced.
fill() {
  mkdir -p "$(dirname "$sdk/$2")"
  sed "s/@VERSION@/$version/g" "$1" >"$sdk/$2"
  chmod 644 "$sdk/$2"
}

put 644 include/backplane "${headers[@]}"
put_binary lib "${file[lib]}"
put_binary lib/backplane "${file[cuda_plugin]}"
put_binary bin "${file[conformance]}"
put 644 share/backplane "${file[ops_txt]}"
fill "${file[cmake_config]}" lib/cmake/Backplane/BackplaneConfig.cmake
fill "${file[cmake_config_version]}" lib/cmake/Backplane/BackplaneConfigVersion.cmake
fill "${file[pkgconfig]}" lib/pkgconfig/backplane.pc

# Where each sample and doc goes: "source<TAB>repository path<TAB>package path" lines. Samples keep
# their paths below samples/ (source files: samples/..., generated: .../samples/...); docs are
# source files, named by their repository paths.
places=$stage/places.tsv
for f in "${samples[@]}"; do
  rel=${f#*samples/}
  printf '%s\tsamples/%s\tshare/backplane/samples/%s\n' "$f" "$rel" "$rel"
done >"$places"
for f in "${docs[@]}"; do
  case "$f" in
    docs/*) dest=share/doc/backplane/${f#docs/} ;;
    package/README.md) dest=share/doc/backplane/README.md ;;
    *) die "--docs: '$f' is neither docs/*.md nor package/README.md" ;;
  esac
  printf '%s\t%s\t%s\n' "$f" "$f" "$dest"
done >>"$places"
cut -f 2,3 "$places" >"$stage/links.tsv"
while IFS=$'\t' read -r src repo dest; do
  mkdir -p "$(dirname "$sdk/$dest")"
  if [[ "$dest" == *.md ]]; then
    perl "${file[doc_links]}" rewrite "$stage/links.tsv" "$repo" "$dest" <"$src" >"$sdk/$dest"
    chmod 644 "$sdk/$dest"
  else
    install -m 644 "$src" "$sdk/$dest"
  fi
done <"$places"

# Deterministic: sorted names, no owners or times, no name or time in the gzip header.
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
  --format=gnu -cf - backplane-sdk | gzip -n -6 >"$out"
