/**
 * Which keys one pass over a list has met, without a set per pass: each pass takes a new number
 * and a key remembers the last pass that met it. Many of a request's candidates share a host, and
 * a request makes a pass per rule that ranks against the best candidate; a reply checks its
 * rejected names for repeats.
 */
export class PassMarks {
  private readonly lastPass = new Map<string, number>();
  private passes = 0;

  /** `maxKeys`: beyond, the marks are dropped when the next pass begins (keys taken from requests are unbounded). */
  constructor(private readonly maxKeys = Number.POSITIVE_INFINITY) {}

  /** A new pass's number. */
  begin(): number {
    if (this.lastPass.size > this.maxKeys) this.lastPass.clear();
    return ++this.passes;
  }

  /** Whether `pass` meets `key` for the first time (then it is marked met). */
  first(key: string, pass: number): boolean {
    if (this.lastPass.get(key) === pass) return false;
    this.lastPass.set(key, pass);
    return true;
  }
}
