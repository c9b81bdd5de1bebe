import { readFile, stat } from "node:fs/promises";
import { createSecureContext } from "node:tls";
import type { Logger } from "../../observability/logger.js";
import { TlsFilesError } from "./tls-files-error.js";

export interface KeyPairFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

export interface KeyPair {
  readonly cert: Buffer;
  readonly key: Buffer;
}

/**
 * Reads and checks a PEM pair. Throws TlsFilesError naming the config key and the file
 * (unreadable file, garbage, or a key that does not match the certificate).
 */
export async function readKeyPair(files: KeyPairFiles): Promise<KeyPair> {
  const read = (key: "certFile" | "keyFile") =>
    readFile(files[key]).catch((err: NodeJS.ErrnoException) => {
      throw new TlsFilesError(`admission.tls.${key}: cannot read ${files[key]} (${err.code ?? err.message})`, { cause: err });
    });
  // One after the other, so that with both files missing the error always names certFile.
  const cert = await read("certFile");
  const key = await read("keyFile");
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new TlsFilesError(`admission.tls: ${files.certFile} and ${files.keyFile} are not a usable certificate and key pair (${(err as Error).message})`, { cause: err });
  }
  return { cert, key };
}

/**
 * Re-reads the certificate and key when either file changes on disk (mtime, size or inode;
 * `stat` follows the symlinks Kubernetes uses for Secret volumes, so cert-manager's atomic
 * `..data` swap is seen) and hands the new pair to `apply` (`server.setSecureContext`).
 * Polling rather than fs.watch: watch events are lost across symlink swaps. A pair that
 * does not load (half-written, key and cert mismatched) is logged once and retried on the
 * next tick; the old certificate keeps being served meanwhile.
 */
export class CertificateReloader {
  private timer: NodeJS.Timeout | undefined;
  private signature = "";
  private failedSignature = "";
  private checking = false;

  constructor(
    private readonly files: KeyPairFiles,
    private readonly apply: (pair: KeyPair) => void,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {}

  /** Records the current files' signature (the pair already loaded) and starts polling. */
  async start(): Promise<void> {
    this.signature = await this.currentSignature();
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One check; returns true when a new pair was applied. */
  async check(): Promise<boolean> {
    if (this.checking) return false;
    this.checking = true;
    try {
      const signature = await this.currentSignature();
      if (signature === this.signature) return false;
      const pair = await readKeyPair(this.files);
      this.apply(pair);
      this.signature = signature;
      this.log.info({ certFile: this.files.certFile }, "admission: TLS certificate reloaded");
      return true;
    } catch (err) {
      const signature = await this.currentSignature().catch(() => "unreadable");
      if (signature !== this.failedSignature) {
        this.failedSignature = signature;
        this.log.warn({ certFile: this.files.certFile, err: (err as Error).message }, "admission: new TLS certificate not loaded; still serving the previous one");
      }
      return false;
    } finally {
      this.checking = false;
    }
  }

  private async currentSignature(): Promise<string> {
    const [c, k] = await Promise.all([stat(this.files.certFile), stat(this.files.keyFile)]);
    return `${c.ino}:${c.size}:${c.mtimeMs}|${k.ino}:${k.size}:${k.mtimeMs}`;
  }
}
