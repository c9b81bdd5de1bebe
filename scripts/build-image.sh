#!/usr/bin/env bash
# Builds the hvx container image from ./Dockerfile with buildah, without a container registry:
#
#   scripts/build-image.sh            # image localhost/hvx:<package.json version>, or $HVX_IMAGE
#
# 1. scripts/node-base-stand-in.sh makes localhost/node:24-bookworm-slim (a stand-in for the
#    official base, cached between runs on this machine);
# 2. buildah bud --pull-never --isolation chroot --network host
#       --build-arg NODE_IMAGE=localhost/node:24-bookworm-slim
#    with --layers, so the npm ci layers are reused while package*.json do not change.
# The Dockerfile itself is what a docker user builds against the real node:24-bookworm-slim.
#
# Where buildah is not installed or cannot run, prints "skipped: ..." and exits 0, unless
# HVX_IMAGE_REQUIRED=1 (CI), where that is an error. A failing build is always an error.
# Needs root for the stand-in base (debootstrap); `buildah` from Debian: apt-get install
# buildah debootstrap.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=localhost/node:24-bookworm-slim
IMAGE=${HVX_IMAGE:-localhost/hvx:$(node -p 'require("./package.json").version')}

skip() {
  if [[ "${HVX_IMAGE_REQUIRED:-0}" == 1 ]]; then
    printf 'build-image: error: %s (HVX_IMAGE_REQUIRED=1)\n' "$*" >&2
    exit 1
  fi
  printf 'build-image: skipped: %s; the image is not built\n' "$*" >&2
  exit 0
}

command -v buildah >/dev/null || skip "buildah is not installed (Debian: apt-get install buildah debootstrap)"
if ! info_err=$(buildah info 2>&1 >/dev/null); then
  skip "buildah cannot run here: ${info_err//$'\n'/ }"
fi
if [[ $(id -u) -ne 0 ]] && ! buildah inspect --type image "$BASE" >/dev/null 2>&1; then
  skip "the stand-in base $BASE is missing and building it needs root (debootstrap): run this script as root once"
fi

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(seconds)
if [[ $(id -u) -eq 0 ]]; then
  scripts/node-base-stand-in.sh
else
  printf 'build-image: not root: using the existing %s as it is\n' "$BASE" >&2
fi
t_base=$(elapsed "$t0")

t1=$(seconds)
buildah bud \
  --pull-never --isolation chroot --network host --layers \
  --build-arg NODE_IMAGE="$BASE" \
  --tag "$IMAGE" --file Dockerfile . >&2
t_bud=$(elapsed "$t1")

size=$(buildah images --noheading --format '{{.Size}}' "$IMAGE" | head -n 1)
printf 'build-image: built %s (%s) in %ss: stand-in base %ss, buildah bud %ss\n' "$IMAGE" "$size" "$(elapsed "$t0")" "$t_base" "$t_bud" >&2
