import { X509Certificate } from "node:crypto";

/**
 * The `notAfter` of the first (leaf) certificate in a PEM bundle, epoch ms; undefined when the
 * bundle holds no parsable certificate (the pair was already checked by `readKeyPair`).
 */
export function certificateNotAfterMs(pem: Buffer | string): number | undefined {
  try {
    const ms = Date.parse(new X509Certificate(pem).validTo);
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}
