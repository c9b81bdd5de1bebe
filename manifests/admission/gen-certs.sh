#!/usr/bin/env bash
# Serving certificate for the hvx webhook on clusters WITHOUT cert-manager.
#
# Creates a private CA and a server certificate for hvx.<namespace>.svc with openssl, stores
# them in the Secret hvx-webhook-tls (tls.crt, tls.key, ca.crt), and writes the CA into the
# caBundle of the MutatingWebhookConfiguration "hvx".
#
# Usage:   manifests/admission/gen-certs.sh [--namespace hvx-system] [--service hvx]
#                                           [--secret hvx-webhook-tls] [--days 365] [--out DIR]
#          --out DIR  only writes the files to DIR and prints the caBundle (no kubectl calls).
# Needs:   openssl (1.1.1+ for -addext), kubectl with rights on Secrets and
#          mutatingwebhookconfigurations (not needed with --out).
# Renewal: run again before --days runs out. hvx notices the new files in the mounted Secret
#          (kubelet syncs within about a minute) and serves them without a restart.
set -euo pipefail

namespace=hvx-system
service=hvx
secret=hvx-webhook-tls
days=365
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --namespace) namespace="$2"; shift 2 ;;
    --service) service="$2"; shift 2 ;;
    --secret) secret="$2"; shift 2 ;;
    --days) days="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

dir="${out:-$(mktemp -d)}"
mkdir -p "$dir"
[[ -z "$out" ]] && trap 'rm -rf "$dir"' EXIT

dns="${service}.${namespace}.svc"

# 1. CA (P-256, 10 years): signs the serving certificate; goes into caBundle.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout "$dir/ca.key" -out "$dir/ca.crt" -days 3650 -subj "/CN=hvx-webhook-ca" 2>/dev/null

# 2. Serving key and CSR; the API server checks the SAN against <service>.<namespace>.svc.
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout "$dir/tls.key" -out "$dir/tls.csr" -subj "/CN=${dns}" 2>/dev/null
cat > "$dir/ext.cnf" <<EXT
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:${dns}, DNS:${dns}.cluster.local
EXT
openssl x509 -req -in "$dir/tls.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
  -days "$days" -extfile "$dir/ext.cnf" -out "$dir/tls.crt" 2>/dev/null
openssl verify -CAfile "$dir/ca.crt" "$dir/tls.crt" >/dev/null

ca_bundle="$(base64 < "$dir/ca.crt" | tr -d '\n')"
if [[ -n "$out" ]]; then
  echo "wrote $dir/{ca.crt,tls.crt,tls.key}"
  echo "caBundle: ${ca_bundle}"
  exit 0
fi

# 3. Secret (create or update in place) and caBundle.
kubectl -n "$namespace" create secret generic "$secret" \
  --from-file=tls.crt="$dir/tls.crt" --from-file=tls.key="$dir/tls.key" --from-file=ca.crt="$dir/ca.crt" \
  --dry-run=client -o yaml | kubectl apply -f -
kubectl patch mutatingwebhookconfiguration hvx --type=json \
  -p "[{\"op\":\"replace\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"${ca_bundle}\"}]"
echo "secret ${namespace}/${secret} written; caBundle of mutatingwebhookconfiguration/hvx updated"
