#!/usr/bin/env bash
# Installs the real Prometheus server from Debian's `prometheus` package for the tests and
# the benchmark (issue 11). The tests start their own instance on a free loopback port;
# the package's system service must not run, so it is stopped if the package started it.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# Without systemd the postinst starts nothing; with it, stop and disable the service.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet prometheus 2>/dev/null; then
  $SUDO systemctl stop prometheus || true
  $SUDO systemctl disable prometheus || true
fi
if command -v service >/dev/null 2>&1; then $SUDO service prometheus stop >/dev/null 2>&1 || true; fi
prometheus --version 2>&1 | head -1
