#!/usr/bin/env bash
# Installs Debian's `prometheus` package for its promtool (the rule and dashboard tests in
# test/monitoring) and its server binary, without leaving a Prometheus service running.
# Idempotent: does nothing when both `promtool` and `prometheus` are already on the PATH.
# Runs as root (CI); needs network access to the Debian mirror.
set -euo pipefail

if command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; then
  echo "install-prometheus: promtool and prometheus already installed ($(promtool --version 2>&1 | head -n1))"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# Forbid service starts during the install (policy-rc.d exit 101: "action forbidden"), so the
# package's postinst does not start a Prometheus server; restore any previous policy after.
policy=/usr/sbin/policy-rc.d
backup=""
if [ -e "$policy" ]; then
  backup="$(mktemp)"
  cp -p "$policy" "$backup"
fi
restore_policy() {
  if [ -n "$backup" ]; then mv -f "$backup" "$policy"; else rm -f "$policy"; fi
}
trap restore_policy EXIT
printf '#!/bin/sh\nexit 101\n' >"$policy"
chmod 0755 "$policy"

apt-get update -qq
apt-get install -y -qq --no-install-recommends prometheus

# Where systemd runs, keep the unit disabled and stopped as well (no-op in containers).
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now prometheus >/dev/null 2>&1 || true
fi

promtool --version 2>&1 | head -n1
