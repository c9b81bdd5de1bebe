import type { PeerCertificate } from "node:tls";

/**
 * The names a client certificate claims, as Node reports them: its SAN `DNS:` and `URI:`
 * entries (Node quotes an entry holding a comma or a quote as a JSON string), then the
 * subject CN (a string, or an array when the subject repeats CN).
 */
export function clientCertificateNames(cert: Pick<PeerCertificate, "subject" | "subjectaltname">): string[] {
  const names: string[] = [];
  for (const m of (cert.subjectaltname ?? "").matchAll(/(?:^|, )(DNS|URI):("(?:[^"\\]|\\.)*"|[^,]*)/g)) {
    const value = m[2]!;
    names.push(value.startsWith('"') ? (JSON.parse(value) as string) : value);
  }
  const cn = (cert.subject as Record<string, string | string[] | undefined> | undefined)?.CN;
  if (cn !== undefined) names.push(...(Array.isArray(cn) ? cn : [cn]));
  return names;
}

/** True when any of the certificate's names is listed (exact, case-sensitive: a URI or a DNS name as written). */
export function isAllowedClient(names: readonly string[], allowed: ReadonlySet<string>): boolean {
  return names.some((n) => allowed.has(n));
}
