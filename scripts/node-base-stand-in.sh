#!/usr/bin/env bash
# Builds localhost/node:24-bookworm-slim, a stand-in for Docker Hub's node:24-bookworm-slim, for
# machines that cannot pull from a container registry. Called by scripts/build-image.sh.
#
# Same layout as the official image: a Debian bookworm minbase root filesystem (debootstrap,
# from the Debian mirror this machine's apt uses), the Node.js 24 first on the PATH (CI:
# scripts/install-node.sh) at /usr/local/bin/node, the PATH's npm and corepack in
# /usr/local/lib/node_modules with the usual links in /usr/local/bin, a "node" user (uid 1000),
# docker-entrypoint.sh, PATH as in the official image.
#
# One addition that belongs to this build environment and never to the Dockerfile: the
# system CA bundle (/etc/ssl/certs/ca-certificates.crt) and NODE_EXTRA_CA_CERTS pointing at it,
# so that `npm ci` inside the build trusts a TLS-inspecting proxy that this machine trusts.
#
# Cached: the image carries a label with a hash of its inputs (this script, the node binary,
# npm, corepack, the CA bundle, the mirror); when the image exists with the same hash nothing
# is done. HVX_STAND_IN_REBUILD=1 forces a rebuild (e.g. for newer Debian packages).
# Needs root (debootstrap, chroot) and buildah.
set -euo pipefail

BASE=localhost/node:24-bookworm-slim
SUITE=bookworm
LABEL=io.hvx.stand-in.stamp
OFFICIAL_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
DEB_CACHE=${HVX_DEB_CACHE:-/var/cache/hvx-stand-in/debs}

log() { printf 'stand-in: %s\n' "$*" >&2; }
die() { printf 'stand-in: error: %s\n' "$*" >&2; exit 1; }

# First "deb" source of the suite in the machine's apt configuration (one-line and deb822
# formats); HVX_DEBIAN_MIRROR overrides it, deb.debian.org is the fallback.
debian_mirror() {
  if [[ -n "${HVX_DEBIAN_MIRROR:-}" ]]; then echo "$HVX_DEBIAN_MIRROR"; return; fi
  local f uri
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r $f ]] || continue
    uri=$(awk -v suite="$SUITE" '$1 == "deb" { i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
      if ($(i + 1) == suite) { print $i; exit } }' "$f")
    if [[ -n $uri ]]; then echo "$uri"; return; fi
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] || continue
    uri=$(awk -v suite="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
      { uris = ""; deb = 0; hit = 0
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^Types:/ && $i ~ /[ \t]deb([ \t]|$)/) deb = 1
          if ($i ~ /^URIs:/) { split($i, u, /[ \t]+/); uris = u[2] }
          if ($i ~ /^Suites:/) { n = split($i, s, /[ \t]+/); for (j = 2; j <= n; j++) if (s[j] == suite) hit = 1 }
        }
        if (deb && hit && uris != "") { print uris; exit } }' "$f")
    if [[ -n $uri ]]; then echo "$uri"; return; fi
  done
  echo http://deb.debian.org/debian
}

[[ $(id -u) -eq 0 ]] || die "needs root (debootstrap and chroot); run as root, e.g. sudo $0"
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"

NODE_BIN=$(readlink -f "$(command -v node)")
NODE_VERSION=$("$NODE_BIN" -p 'process.versions.node')
[[ ${NODE_VERSION%%.*} == 24 ]] || die "the node on the PATH is Node.js $NODE_VERSION; the stand-in for node:24 needs Node.js 24 (PATH=\"\$(scripts/install-node.sh):\$PATH\")"
# The folder that holds the npm on the PATH (and corepack next to it), not `npm root -g`: a Node.js
# from scripts/install-node.sh has no npm of its own, and npm derives its global root from it.
NPM_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
NODE_MODULES=$(dirname "$NPM_DIR")
[[ -f $NODE_MODULES/npm/package.json ]] || die "npm not found in $NODE_MODULES"
HAVE_COREPACK=0
[[ -f $NODE_MODULES/corepack/package.json ]] && HAVE_COREPACK=1
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
HAVE_CA=0
[[ -s $CA_BUNDLE ]] && HAVE_CA=1
MIRROR=$(debian_mirror)
ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)

version_of() { "$NODE_BIN" -p "require('$1/package.json').version"; }
STAMP=$(
  {
    sha256sum "$0" "$NODE_BIN"
    echo "npm $(version_of "$NODE_MODULES/npm")"
    if [[ $HAVE_COREPACK == 1 ]]; then echo "corepack $(version_of "$NODE_MODULES/corepack")"; fi
    if [[ $HAVE_CA == 1 ]]; then sha256sum "$CA_BUNDLE"; fi
    echo "$MIRROR $SUITE $ARCH"
  } | sha256sum | cut -c1-32
)

if [[ "${HVX_STAND_IN_REBUILD:-0}" != 1 ]] &&
  [[ $(buildah inspect --type image --format "{{index .OCIv1.Config.Labels \"$LABEL\"}}" "$BASE" 2>/dev/null || true) == "$STAMP" ]]; then
  log "$BASE is up to date (stamp $STAMP), not rebuilt"
  exit 0
fi

log "building $BASE: debootstrap --variant=minbase $SUITE from $MIRROR, Node.js $NODE_VERSION from $NODE_BIN"
WORK=$(mktemp -d /var/tmp/hvx-stand-in.XXXXXX)
ROOTFS=$WORK/rootfs
cleanup() {
  # debootstrap may leave proc/sys mounted in the target when it fails.
  for m in proc sys; do umount -l "$ROOTFS/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

mkdir -p "$DEB_CACHE"
debootstrap --variant=minbase --arch="$ARCH" --cache-dir="$DEB_CACHE" "$SUITE" "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
  tail -n 30 "$WORK/debootstrap.log" >&2
  die "debootstrap failed (log above)"
}

# Node.js, npm and corepack where the official image has them.
install -D -m 0755 "$NODE_BIN" "$ROOTFS/usr/local/bin/node"
mkdir -p "$ROOTFS/usr/local/lib/node_modules"
cp -a "$NODE_MODULES/npm" "$ROOTFS/usr/local/lib/node_modules/"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
if [[ $HAVE_COREPACK == 1 ]]; then
  cp -a "$NODE_MODULES/corepack" "$ROOTFS/usr/local/lib/node_modules/"
  ln -s ../lib/node_modules/corepack/dist/corepack.js "$ROOTFS/usr/local/bin/corepack"
fi
cat >"$ROOTFS/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
# Run command with node if the first argument contains a "-" or is not a system command.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
chmod 0755 "$ROOTFS/usr/local/bin/docker-entrypoint.sh"
chroot "$ROOTFS" groupadd --gid 1000 node
chroot "$ROOTFS" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

# Build environment only: trust what this machine trusts (TLS-inspecting proxy).
ENV_CA=()
if [[ $HAVE_CA == 1 ]]; then
  install -D -m 0644 "$CA_BUNDLE" "$ROOTFS$CA_BUNDLE"
  ENV_CA=(--env "NODE_EXTRA_CA_CERTS=$CA_BUNDLE")
fi

# As slim as the official image: no package lists, no downloaded packages, empty /dev.
chroot "$ROOTFS" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/log/*.log "$ROOTFS"/var/cache/debconf/*-old "$ROOTFS"/dev/*
chroot "$ROOTFS" /usr/local/bin/node -e 'require("node:https")' || die "node does not run in the stand-in root filesystem"
chroot "$ROOTFS" /usr/local/bin/npm --version >/dev/null || die "npm does not run in the stand-in root filesystem"

tar --numeric-owner --xattrs -C "$ROOTFS" -cf "$WORK/rootfs.tar" .
CTR=$(buildah from scratch)
buildah add --quiet "$CTR" "$WORK/rootfs.tar" / >/dev/null
buildah config \
  --env "PATH=$OFFICIAL_PATH" --env "NODE_VERSION=$NODE_VERSION" "${ENV_CA[@]}" \
  --entrypoint '["docker-entrypoint.sh"]' --cmd node \
  --label "$LABEL=$STAMP" \
  --label "io.hvx.stand-in=debootstrap minbase $SUITE ($MIRROR) + Node.js $NODE_VERSION of the build machine" \
  "$CTR"
buildah commit --quiet --rm "$CTR" "$BASE" >/dev/null
log "built $BASE (stamp $STAMP)"
