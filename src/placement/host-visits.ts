/**
 * Which hosts one pass over a request's candidates has met, without a set per pass: each pass
 * takes a new number and a host remembers the last pass that met it. Many candidates share a
 * host, and a request makes a pass per rule that ranks against the best candidate.
 */
export class HostVisits {
  /** By host id: bounded by the inventory's hosts. */
  private readonly lastPass = new Map<string, number>();
  private passes = 0;

  /** A new pass's number. */
  begin(): number {
    return ++this.passes;
  }

  /** Whether `pass` meets `hostId` for the first time (then it is marked met). */
  first(hostId: string, pass: number): boolean {
    if (this.lastPass.get(hostId) === pass) return false;
    this.lastPass.set(hostId, pass);
    return true;
  }
}
