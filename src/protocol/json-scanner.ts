const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Walks the structure of a JSON text without decoding it: finds where members and elements
 * begin and end, so a caller can take the text of a value, or skip one it already knows.
 * It checks the punctuation it walks (braces, brackets, colons, commas, whitespace); it does not
 * check the values it skips. Every method answers false or undefined for what it does not expect, and never throws.
 */
export class JsonScanner {
  private i = 0;
  constructor(private readonly text: string) {}

  /** Past `literal` when the text has it at the cursor. */
  skipLiteral(literal: string): boolean {
    if (!this.text.startsWith(literal, this.i)) return false;
    this.i += literal.length;
    return true;
  }

  /**
   * Walks the members of the object at the cursor; `visit` is called with each key and the
   * cursor on its value, and reads or skips the value (false when it could not).
   * False when the text is not shaped as expected.
   */
  eachMember(visit: (key: string) => boolean): boolean {
    if (this.next() !== OPEN_BRACE) return false;
    this.i++;
    if (this.next() === CLOSE_BRACE) return (this.i++, true);
    for (;;) {
      this.next();
      const key = this.key();
      if (key === undefined || this.next() !== COLON) return false;
      this.i++;
      this.next();
      if (!visit(key)) return false;
      const c = this.next();
      this.i++;
      if (c === CLOSE_BRACE) return true;
      if (c !== COMMA) return false;
    }
  }

  /** At an array: the text of each element; undefined when not an array. */
  elements(): string[] | undefined {
    if (this.text.charCodeAt(this.i) !== OPEN_BRACKET) return undefined;
    this.i++;
    const out: string[] = [];
    if (this.next() === CLOSE_BRACKET) return (this.i++, out);
    for (;;) {
      this.next();
      const start = this.i;
      if (!this.skipValue()) return undefined;
      out.push(this.text.slice(start, this.i));
      const c = this.next();
      this.i++;
      if (c === CLOSE_BRACKET) return out;
      if (c !== COMMA) return undefined;
    }
  }

  /** Past the value at the cursor; false at the end of the text. */
  skipValue(): boolean {
    const text = this.text;
    const c = text.charCodeAt(this.i);
    if (c === QUOTE) return this.skipString();
    if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
      // A number, true, false or null: up to the next delimiter.
      const start = this.i;
      let i = start;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d <= 0x20) break;
      }
      this.i = i;
      return i > start;
    }
    let depth = 0;
    for (let i = this.i; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) {
        this.i = i;
        if (!this.skipString()) return false;
        i = this.i - 1;
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) {
        this.i = i + 1;
        return true;
      }
    }
    return false;
  }

  private key(): string | undefined {
    const start = this.i;
    if (this.text.charCodeAt(start) !== QUOTE || !this.skipString()) return undefined;
    const raw = this.text.slice(start + 1, this.i - 1);
    if (!raw.includes("\\")) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return undefined;
    }
  }

  /** At an opening quote: past the closing one. */
  private skipString(): boolean {
    const text = this.text;
    let end = text.indexOf('"', this.i + 1);
    while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
    if (end === -1) return false;
    this.i = end + 1;
    return true;
  }

  /** Past whitespace: the character there (NaN at the end). */
  private next(): number {
    const text = this.text;
    let c = text.charCodeAt(this.i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.i);
    return c;
  }
}

/** Whether the quote at `at` is preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === BACKSLASH) n++;
  return n % 2 === 1;
}
