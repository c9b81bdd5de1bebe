import { JsonScanner } from "./json-scanner.js";

/**
 * The JSON text of each element of `Nodes.items` in an ExtenderArgs body, as sent, in order:
 * what a full-`Nodes` filter reply echoes for the passing nodes instead of serializing the
 * parsed objects again (`JSON.stringify` of 500 nodes of 7 KB is a third of such a request).
 *
 * Only for a body `JSON.parse` has accepted: the scan relies on it being valid JSON and answers
 * undefined for anything it does not expect. Where a key repeats, the last one counts, as with
 * `JSON.parse` and Go's decoder. An element's text decodes to the very object `JSON.parse`
 * made of it; it may differ in bytes (spacing, escapes, a number's spelling), and a large
 * integer keeps digits a JavaScript number would have lost.
 */
export function nodeItemTexts(text: string): string[] | undefined {
  const scan = new JsonScanner(text);
  let items: string[] | undefined;
  const read = scan.eachMember((key) => (key === "Nodes" ? (items = itemsOfNodeList(scan)) !== undefined : scan.skipValue()));
  return read ? items : undefined;
}

/** At a `Nodes` value: the texts of its `items`, [] for null, undefined when not a NodeList. */
function itemsOfNodeList(scan: JsonScanner): string[] | undefined {
  if (scan.skipLiteral("null")) return [];
  let items: string[] | undefined;
  const ok = scan.eachMember((key) => (key === "items" ? (items = scan.elements()) !== undefined : scan.skipValue()));
  return ok ? items : undefined;
}
