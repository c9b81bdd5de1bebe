/** The webhook's certificate or key cannot be used; the message names the config key and file. */
export class TlsFilesError extends Error {
  override name = "TlsFilesError";
}
