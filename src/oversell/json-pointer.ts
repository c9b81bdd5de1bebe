/** RFC 6901 escaping of one reference token: `~` -> `~0` first, then `/` -> `~1`. */
export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A JSON Pointer from raw tokens: `["metadata","annotations","hvx.io/x"]` -> `/metadata/annotations/hvx.io~1x`. */
export function jsonPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(String(t))}`).join("");
}
