/**
 * A reply written as UTF-8 bytes as it is built: no intermediate strings to concatenate,
 * flatten and encode again. The buffer lives outside V8's young generation, so a large reply
 * does not fill it (docs/performance.md, "The twelfth stop").
 */
export class JsonBytes {
  private buf: Buffer;
  private length = 0;

  /** `expected`: the bytes the caller expects to write (the buffer grows past it if needed). */
  constructor(expected: number) {
    this.buf = Buffer.allocUnsafe(Math.max(64, expected));
  }

  /** Text known to be printable ASCII (one byte per character), e.g. a name without characters JSON escapes. */
  ascii(text: string): this {
    this.room(text.length);
    this.length += this.buf.write(text, this.length, "latin1");
    return this;
  }

  /** Any text (JSON already escaped), as UTF-8. */
  utf8(text: string): this {
    this.room(text.length * 3);
    this.length += this.buf.write(text, this.length, "utf8");
    return this;
  }

  /** The bytes written: a view of the buffer, which this writer no longer touches. */
  done(): Buffer {
    return this.buf.subarray(0, this.length);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + bytes));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
}
