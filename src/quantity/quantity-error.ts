/** A text that is not a valid Kubernetes `resource.Quantity`, or a value out of range. */
export class QuantityError extends Error {
  override name = "QuantityError";
  constructor(
    message: string,
    readonly text: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
