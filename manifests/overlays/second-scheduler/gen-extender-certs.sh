#!/usr/bin/env bash
# Mutual-TLS certificates for hvx's extender port and the second scheduler, on clusters WITHOUT
# cert-manager (overlays/second-scheduler-gen-certs).
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: manifests/overlays/second-scheduler/gen-extender-certs.sh [--namespace hvx-system] [--service hvx]
                                        [--client-name hvx-scheduler] [--days 365] [--out DIR]

Creates a private CA and, signed by it, hvx's serving certificate for <service>.<namespace>.svc
(Secret hvx-extender-tls) and the scheduler's client certificate named <client-name> (CN and SAN
DNS; Secret hvx-scheduler-client-tls). Each Secret holds tls.crt, tls.key and ca.crt; each is
created, or replaced if it exists. hvx accepts only client certificates whose name is in
server.tls.allowedClientNames (overlays/second-scheduler/hvx-config-mtls.yaml: hvx-scheduler).

Order (the namespace must exist):
  kubectl apply -f manifests/base/namespace.yaml
  manifests/overlays/second-scheduler/gen-extender-certs.sh
  kubectl apply -k manifests/overlays/second-scheduler-gen-certs

  --out DIR  only write the files to DIR (no kubectl calls).
  -h, --help print this help.

Needs:   openssl (1.1.1+), kubectl allowed to get/create/update Secrets in <namespace> (not with --out).
Renewal: run again before --days runs out, then restart the scheduler
         (kubectl -n <namespace> rollout restart deployment/hvx-scheduler); hvx reloads its files by itself.
USAGE
}

namespace=hvx-system
service=hvx
client_name=hvx-scheduler
days=365
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --namespace) namespace="$2"; shift 2 ;;
    --service) service="$2"; shift 2 ;;
    --client-name) client_name="$2"; shift 2 ;;
    --days) days="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

dir="${out:-$(mktemp -d)}"
mkdir -p "$dir"
[[ -z "$out" ]] && trap 'rm -rf "$dir"' EXIT

dns="${service}.${namespace}.svc"
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)

# 1. CA (P-256, 10 years): signs both certificates; ca.crt in both Secrets.
openssl req -x509 "${ec[@]}" -keyout "$dir/ca.key" -out "$dir/ca.crt" -days 3650 -subj "/CN=hvx-extender-ca" 2>/dev/null

# 2. A leaf: name, subject CN, extensions.
leaf() {
  local name="$1" cn="$2" ext="$3"
  openssl req -new "${ec[@]}" -keyout "$dir/$name.key" -out "$dir/$name.csr" -subj "/CN=${cn}" 2>/dev/null
  printf '%s\n' "basicConstraints = CA:FALSE" "keyUsage = critical, digitalSignature" "$ext" > "$dir/$name.cnf"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days "$days" -extfile "$dir/$name.cnf" -out "$dir/$name.crt" 2>/dev/null
  openssl verify -CAfile "$dir/ca.crt" "$dir/$name.crt" >/dev/null
}
# hvx's serving certificate: server use only, so that it cannot pose as the scheduler.
leaf extender "$dns" "$(printf '%s\n' "extendedKeyUsage = serverAuth" "subjectAltName = DNS:${dns}, DNS:${dns}.cluster.local")"
leaf scheduler-client "$client_name" "$(printf '%s\n' "extendedKeyUsage = clientAuth" "subjectAltName = DNS:${client_name}")"

if [[ -n "$out" ]]; then
  echo "wrote $dir/{ca.crt,extender.crt,extender.key,scheduler-client.crt,scheduler-client.key}"
  exit 0
fi

# 3. The Secrets: created, or replaced in place (no moment without them for the mounted volumes).
secret() {
  local name="$1" leaf="$2"
  kubectl -n "$namespace" create secret generic "$name" \
    --from-file=tls.crt="$dir/$leaf.crt" --from-file=tls.key="$dir/$leaf.key" --from-file=ca.crt="$dir/ca.crt" \
    --dry-run=client -o json > "$dir/$name.json"
  if kubectl -n "$namespace" get secret "$name" -o name >/dev/null 2>&1; then
    kubectl -n "$namespace" replace --validate=false -f "$dir/$name.json" >/dev/null
  else
    kubectl -n "$namespace" create --validate=false -f "$dir/$name.json" >/dev/null
  fi
}
secret hvx-extender-tls extender
secret hvx-scheduler-client-tls scheduler-client
echo "secrets ${namespace}/hvx-extender-tls and ${namespace}/hvx-scheduler-client-tls written (client name ${client_name})"
