/**
 * Reading JSON the way Go's `encoding/json` decodes into a struct without json tags: an object
 * key matches a field when it equals the field name or equals it under Unicode case folding
 * (`bytes.EqualFold`), so `pod`, `POD` and `Pod` all fill `Pod`. Every matching key is decoded in
 * document order, so the last one wins.
 *
 * The Go field names hvx reads are ASCII; the only non-ASCII runes that fold onto ASCII letters
 * are U+017F (long s, folds to `s`) and U+212A (Kelvin sign, folds to `k`), and Go accepts them
 * (`"Podſ"` fills `Pods`). Every other non-ASCII rune can never match an ASCII name.
 *
 * Approximation: `JSON.parse` keeps one entry per exact key (the last value, at the first
 * key's position), so for a body repeating one exact key around a differently cased one the
 * winner may differ from Go's. kube-scheduler never sends such a body.
 */

/** The folded form under which two names match, e.g. `nodenametometavictims`. */
export function goFoldName(name: string): string {
  let out = "";
  for (const ch of name) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x41 && code <= 0x5a) out += String.fromCharCode(code + 0x20);
    else if (code === 0x17f) out += "s";
    else if (code === 0x212a) out += "k";
    else out += ch;
  }
  return out;
}

/**
 * The value of field `name` in a decoded JSON object, matched as Go matches it (see above);
 * undefined when no key matches. Only own keys count: `__proto__` and friends are plain keys.
 */
export function goField(obj: Readonly<Record<string, unknown>>, name: string): unknown {
  const folded = goFoldName(name);
  let value: unknown;
  for (const key of Object.keys(obj)) if (key === name || goFoldName(key) === folded) value = obj[key];
  return value;
}
