/** The poller cannot start with the given `vcenter` settings (missing URL or credentials, unreadable CA file). */
export class VcenterConfigError extends Error {
  override name = "VcenterConfigError";
  readonly kind = "config";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
