/**
 * A Kubernetes label value from free text (an ESXi host name): at most 63 characters of
 * `[A-Za-z0-9._-]`, starting and ending with an alphanumeric. Other characters become `-`.
 * Returns undefined when nothing valid is left.
 */
export const MAX_LABEL_VALUE_LENGTH = 63;

export function sanitizeLabelValue(text: string): string | undefined {
  const replaced = text.replace(/[^A-Za-z0-9._-]/g, "-").slice(0, MAX_LABEL_VALUE_LENGTH);
  const trimmed = replaced.replace(/^[^A-Za-z0-9]+/, "").replace(/[^A-Za-z0-9]+$/, "");
  return trimmed === "" ? undefined : trimmed;
}
