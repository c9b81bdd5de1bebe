/** A serving certificate, key or client CA cannot be used; the message names the config key and file. */
export class TlsFilesError extends Error {
  override name = "TlsFilesError";
}
