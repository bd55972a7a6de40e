#!/usr/bin/env bash
# Assembles backplane-sdk.tar.gz (the layout is in docs/building.md, "The SDK package"). Called by
# //package:backplane_sdk as
#   make_sdk.sh OUT.tar.gz --version_h=F --lib=F --cuda_plugin=F --conformance=F --ops_txt=F
#     --cmake_config=F --cmake_config_version=F --pkgconfig=F --headers F... --samples F...
# Every file's place in the package comes from its option, not from its Bazel path.
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
list=
for arg in "$@"; do
  case "$arg" in
    --headers | --samples) list=${arg#--} ;;
    --*=*)
      key=${arg%%=*}
      file[${key#--}]=${arg#*=}
      ;;
    *)
      case "$list" in
        headers) headers+=("$arg") ;;
        samples) samples+=("$arg") ;;
        *) die "unexpected argument '$arg'" ;;
      esac
      ;;
  esac
done
for key in version_h lib cuda_plugin conformance ops_txt cmake_config cmake_config_version pkgconfig; do
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
# Samples keep their paths below samples/ (source files: samples/..., generated: .../samples/...).
for f in "${samples[@]}"; do
  rel=${f#*samples/}
  mkdir -p "$sdk/share/backplane/samples/$(dirname "$rel")"
  install -m 644 "$f" "$sdk/share/backplane/samples/$rel"
done

# Deterministic: sorted names, no owners or times, no name or time in the gzip header.
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
  --format=gnu -cf - backplane-sdk | gzip -n -6 >"$out"
