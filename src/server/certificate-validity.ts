import { X509Certificate } from "node:crypto";

export type CertificateValidityProblem = "expired" | "not_yet_valid";

/**
 * Why the leaf certificate of a PEM bundle cannot be served at `nowMs` (outside notBefore ..
 * notAfter), or undefined when it can (or cannot be parsed: `readKeyPair` has checked that).
 */
export function certificateValidityProblem(pem: Buffer | string, nowMs: number): CertificateValidityProblem | undefined {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    return undefined;
  }
  if (nowMs > Date.parse(cert.validTo)) return "expired";
  if (nowMs < Date.parse(cert.validFrom)) return "not_yet_valid";
  return undefined;
}
