#!/usr/bin/env bash
# Serving certificate for the hvx webhook on clusters WITHOUT cert-manager (overlays/webhook-gen-certs).
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: manifests/admission/gen-certs.sh [--namespace hvx-system] [--service hvx] [--secret hvx-webhook-tls]
                                        [--webhook hvx] [--days 365] [--out DIR]

Creates a private CA and a serving certificate for <service>.<namespace>.svc with openssl, stores
them in the Secret <secret> (tls.crt, tls.key, ca.crt; created, or replaced if it exists) and writes
the CA into the caBundle of every webhook of the MutatingWebhookConfiguration <webhook>.

Order: apply the overlay first, then run this script:
  kubectl apply -k manifests/overlays/webhook-gen-certs
  manifests/admission/gen-certs.sh
The configuration must exist (the script stops before writing anything if it does not). The
overlay has no caBundle field, so applying it again later keeps the one written here.

  --out DIR  only write the files to DIR and print the caBundle (no kubectl calls).
  -h, --help print this help.

Needs:   openssl (1.1.1+ for -addext), kubectl allowed to get/create/update Secrets in <namespace>
         and to get/patch mutatingwebhookconfigurations (neither with --out).
Renewal: run again before --days runs out. hvx notices the new files in the mounted Secret
         (the kubelet syncs within about a minute) and serves them without a restart.
USAGE
}


namespace=hvx-system
service=hvx
secret=hvx-webhook-tls
webhook=hvx
days=365
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --namespace) namespace="$2"; shift 2 ;;
    --service) service="$2"; shift 2 ;;
    --secret) secret="$2"; shift 2 ;;
    --webhook) webhook="$2"; shift 2 ;;
    --days) days="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

# Before anything is generated or written: the cluster must answer, and the configuration to patch exist.
if [[ -z "$out" ]]; then
  if ! found="$(kubectl get mutatingwebhookconfiguration "$webhook" -o name --ignore-not-found --request-timeout=15s 2>&1)"; then
    context="$(kubectl config current-context 2>/dev/null || echo "none")"
    echo "cannot reach the cluster of kubectl's context '${context}' (KUBECONFIG, --context): ${found}" >&2
    echo "nothing was written; fix kubectl's access first, or use --out DIR to write the files without a cluster" >&2
    exit 1
  fi
  if [[ "$found" != *"mutatingwebhookconfiguration"* ]]; then
    echo "mutatingwebhookconfiguration/${webhook} not found: apply it first (kubectl apply -k manifests/overlays/webhook-gen-certs), then run this script again" >&2
    exit 1
  fi
fi

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

# 3. Secret: created, or replaced in place (no moment without it for the mounted volume).
kubectl -n "$namespace" create secret generic "$secret" \
  --from-file=tls.crt="$dir/tls.crt" --from-file=tls.key="$dir/tls.key" --from-file=ca.crt="$dir/ca.crt" \
  --dry-run=client -o json > "$dir/secret.json"
if kubectl -n "$namespace" get secret "$secret" -o name >/dev/null 2>&1; then
  kubectl -n "$namespace" replace --validate=false -f "$dir/secret.json" >/dev/null
else
  kubectl -n "$namespace" create --validate=false -f "$dir/secret.json" >/dev/null
fi

# 4. caBundle of every webhook in the configuration (one JSON Patch, index by index).
count="$(kubectl get mutatingwebhookconfiguration "$webhook" -o jsonpath='{range .webhooks[*]}x{end}')"
patch=""
for ((i = 0; i < ${#count}; i++)); do
  patch+="${patch:+,}{\"op\":\"add\",\"path\":\"/webhooks/${i}/clientConfig/caBundle\",\"value\":\"${ca_bundle}\"}"
done
kubectl patch mutatingwebhookconfiguration "$webhook" --type=json -p "[${patch}]" >/dev/null
echo "secret ${namespace}/${secret} written; caBundle of mutatingwebhookconfiguration/${webhook} set (${#count} webhook(s))"
