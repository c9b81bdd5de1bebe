#!/usr/bin/env bash
# Builds govmomi's vCenter simulator (vcsim) for the SOAP tests (test/vsphere/soap-vcsim.test.ts)
# from Debian's packages: golang-go and golang-github-vmware-govmomi-dev (the govmomi source in
# /usr/share/gocode), installed when missing (root; Debian mirror). Builds test/vcsim/main.go in
# GOPATH mode, offline. The binary is cached under node_modules/.cache/hvx-vcsim/, keyed on the
# main.go and govmomi versions; prints its path on the last line.
# Usage: scripts/build-vcsim.sh   (then: "$(scripts/build-vcsim.sh | tail -n1)" -hosts 3 -vms 2)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! dpkg -s golang-go golang-github-vmware-govmomi-dev >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends golang-go golang-github-vmware-govmomi-dev
fi

govmomi="$(dpkg-query -W -f '${Version}' golang-github-vmware-govmomi-dev)"
key="$(cat test/vcsim/main.go <(echo "$govmomi") <(go version) | sha256sum | cut -c1-16)"
cache="${HVX_VCSIM_CACHE:-$PWD/node_modules/.cache/hvx-vcsim}"
bin="$cache/vcsim-$key"
if [ -x "$bin" ]; then
  echo "build-vcsim: cached (govmomi $govmomi)" >&2
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/hvx-vcsim"
cp test/vcsim/main.go "$work/src/hvx-vcsim/main.go"
start=$SECONDS
(
  cd "$work/src/hvx-vcsim"
  GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOCACHE="$cache/go-build" GOFLAGS= \
    go build -o "$bin.tmp" .
)
mv -f "$bin.tmp" "$bin"
echo "build-vcsim: built with govmomi $govmomi in $((SECONDS - start)) s" >&2
echo "$bin"
