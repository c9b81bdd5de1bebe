import { Gauge, type Registry } from "prom-client";

/** The namespace label the MutatingWebhookConfiguration selects (manifests/admission/). */
export const OPT_IN_LABEL = "hvx.io/oversell";
export const OPT_IN_VALUE = "enabled";

/** Namespaces whose labels opt them into the webhook; undefined without a synced cluster view. */
export function countOptedInNamespaces(namespaces: ReadonlyMap<string, Readonly<Record<string, string>>> | undefined): number | undefined {
  if (namespaces === undefined) return undefined;
  let n = 0;
  for (const labels of namespaces.values()) if (labels[OPT_IN_LABEL] === OPT_IN_VALUE) n += 1;
  return n;
}

/**
 * Issue 28: `hvx_admission_opted_in_namespaces`, read at scrape time. With
 * `hvx_admission_reviews_total` it tells a webhook the API server never reaches (the
 * NetworkPolicy's placeholder CIDR, a missing caBundle: failurePolicy Ignore hides both) from
 * one nobody opted into (alert HvxWebhookNotCalled). NaN (unknown) before the cluster view synced.
 */
export function registerOptedInNamespacesGauge(registry: Registry, count: () => number | undefined): void {
  new Gauge({
    name: "hvx_admission_opted_in_namespaces",
    help: `Namespaces labelled ${OPT_IN_LABEL}=${OPT_IN_VALUE} (the webhook's namespaceSelector) in hvx's cluster cache.`,
    registers: [registry],
    collect() {
      this.set(count() ?? Number.NaN);
    },
  });
}
