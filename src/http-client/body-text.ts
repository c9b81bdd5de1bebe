/** The reply body as text: decoded as UTF-8 once, from all its bytes, a leading byte-order mark dropped. */
export function bodyText(chunks: readonly Buffer[], bytes: number): string {
  const text = Buffer.concat(chunks, bytes).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
