/** A request body as it was received, and its UTF-8 text, decoded once and only when asked for. */
export class ReceivedBody {
  private decoded: string | undefined;

  constructor(private readonly received: Buffer | string) {}

  text(): string {
    return typeof this.received === "string" ? this.received : (this.decoded ??= this.received.toString("utf8"));
  }
}
