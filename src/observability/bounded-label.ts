/** The label value that stands for every value hvx will not give a series of its own. */
export const OTHER_LABEL = "other";
/** Distinct namespace label values kept when no informer cache can vouch for them. */
export const MAX_UNVERIFIED_NAMESPACES = 200;

/** A Kubernetes namespace name (RFC 1123 label): anything else cannot be a real namespace. */
const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Maps a namespace taken from a request to a metric label value with bounded cardinality:
 * a request can name any namespace, and every new label value is a new series kept forever.
 * `known(ns)` is the informer cache's answer (true/false), or undefined when there is no
 * synced cache: then the first `max` distinct well-formed names keep their own value.
 * Everything else is `other`.
 */
export function boundedNamespaceLabel(
  known?: (namespace: string) => boolean | undefined,
  max = MAX_UNVERIFIED_NAMESPACES,
): (namespace: string) => string {
  const seen = new Set<string>();
  return (namespace) => {
    if (!NAMESPACE_NAME.test(namespace)) return OTHER_LABEL;
    const verdict = known?.(namespace);
    if (verdict !== undefined) return verdict ? namespace : OTHER_LABEL;
    if (seen.has(namespace)) return namespace;
    if (seen.size >= max) return OTHER_LABEL;
    seen.add(namespace);
    return namespace;
  };
}
