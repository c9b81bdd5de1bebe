import zlib from "node:zlib";
import type { Transform } from "node:stream";

/**
 * What the sender asks for; the reply's `content-encoding` says which one it got. Not `deflate`:
 * servers send it both zlib-wrapped (as RFC 9110 says) and raw, and only the wrapped form is
 * decoded; a server that sends it unasked still gets that.
 */
export const ACCEPTED_ENCODINGS = "gzip, br";

/**
 * A streaming decoder for a reply's `content-encoding`, or none for an identity body. An encoding
 * hvx did not ask for passes through undecoded, as it did with axios.
 */
export function decompressorFor(contentEncoding: string | undefined): Transform | undefined {
  switch ((contentEncoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}
