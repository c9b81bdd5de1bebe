import { readFile, stat } from "node:fs/promises";
import { createSecureContext, type SecureContextOptions } from "node:tls";
import type { Logger } from "../observability/logger.js";
import { certificateValidityProblem, type CertificateValidityProblem } from "./certificate-validity.js";
import { TlsFilesError } from "./tls-files-error.js";

export interface KeyPairFiles {
  readonly certFile: string;
  readonly keyFile: string;
  /** CA bundle that client certificates must chain to (mutual TLS); absent: no client certificate asked. */
  readonly clientCAFile?: string;
}

export interface KeyPair {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca?: Buffer;
}

/** Every TLS listener of hvx: TLS 1.2 at least. */
export const MIN_TLS_VERSION = "TLSv1.2" as const;

/** The secure-context options for a pair (what `setSecureContext` is given on reload). */
export function secureContextOptions(pair: KeyPair): SecureContextOptions {
  return { cert: pair.cert, key: pair.key, ...(pair.ca ? { ca: pair.ca } : {}), minVersion: MIN_TLS_VERSION };
}

/**
 * Reads and checks a PEM pair (and the client CA when set). Throws TlsFilesError naming the
 * config key (`keyPrefix`, e.g. `admission.tls` or `server.tls`) and the file: unreadable
 * file, garbage, a key that does not match the certificate, or a CA file with no certificate.
 */
export async function readKeyPair(files: KeyPairFiles, keyPrefix = "admission.tls"): Promise<KeyPair> {
  const read = (key: "certFile" | "keyFile" | "clientCAFile", path: string) =>
    readFile(path).catch((err: NodeJS.ErrnoException) => {
      throw new TlsFilesError(`${keyPrefix}.${key}: cannot read ${path} (${err.code ?? err.message})`, { cause: err });
    });
  // One after the other, so that with both files missing the error always names certFile.
  const cert = await read("certFile", files.certFile);
  const key = await read("keyFile", files.keyFile);
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new TlsFilesError(
      `${keyPrefix}: ${files.certFile} and ${files.keyFile} are not a usable certificate and key pair (${(err as Error).message})`,
      { cause: err },
    );
  }
  if (files.clientCAFile === undefined) return { cert, key };
  const ca = await read("clientCAFile", files.clientCAFile);
  if (!ca.includes("-----BEGIN CERTIFICATE-----")) {
    throw new TlsFilesError(`${keyPrefix}.clientCAFile: ${files.clientCAFile} holds no PEM certificate`);
  }
  try {
    createSecureContext({ cert, key, ca });
  } catch (err) {
    throw new TlsFilesError(`${keyPrefix}.clientCAFile: ${files.clientCAFile} is not a usable CA bundle (${(err as Error).message})`, {
      cause: err,
    });
  }
  return { cert, key, ca };
}

export interface ReloadValidity {
  /** Epoch ms; default Date.now. */
  readonly clock?: () => number;
  /** A new certificate outside its validity window was refused (once per version of the files). */
  readonly onRefused?: (problem: CertificateValidityProblem) => void;
}

/**
 * Re-reads the certificate, key (and client CA) when any file changes on disk (mtime, size or
 * inode; `stat` follows the symlinks Kubernetes uses for Secret volumes, so cert-manager's
 * atomic `..data` swap is seen) and hands the new pair to `apply` (`server.setSecureContext`).
 * Polling rather than fs.watch: watch events are lost across symlink swaps. A pair that
 * does not load (half-written, key and cert mismatched) or is expired or not yet valid is logged
 * once and retried on the next tick; the old certificate keeps being served meanwhile.
 */
export class CertificateReloader {
  private timer: NodeJS.Timeout | undefined;
  private signature = "";
  private failedSignature = "";
  private inFlight: Promise<boolean> | undefined;

  constructor(
    private readonly files: KeyPairFiles,
    private readonly apply: (pair: KeyPair) => void,
    private readonly log: Logger,
    private readonly intervalMs: number,
    private readonly keyPrefix = "admission.tls",
    private readonly validity: ReloadValidity = {},
  ) {}

  /** Records the current files' signature (the pair already loaded) and starts polling. */
  async start(): Promise<void> {
    this.signature = await this.currentSignature();
    this.timer = setInterval(() => {
      if (!this.inFlight) void this.check();
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One check, after any check already running (so a caller who just rotated the files sees them
   * applied when this resolves); true when this check applied a new pair.
   */
  check(): Promise<boolean> {
    const run = (this.inFlight ?? Promise.resolve(false)).then(() => this.checkOnce());
    this.inFlight = run;
    void run.finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
    });
    return run;
  }

  private async checkOnce(): Promise<boolean> {
    try {
      const signature = await this.currentSignature();
      if (signature === this.signature) return false;
      const pair = await readKeyPair(this.files, this.keyPrefix);
      const problem = certificateValidityProblem(pair.cert, (this.validity.clock ?? Date.now)());
      if (problem !== undefined) {
        // Issue 28: serving it would break every handshake; the old one may still be good.
        if (signature !== this.failedSignature) this.validity.onRefused?.(problem);
        throw new Error(`${this.files.certFile} is ${problem === "expired" ? "expired" : "not yet valid"}`);
      }
      this.apply(pair);
      this.signature = signature;
      this.log.info({ certFile: this.files.certFile }, `${this.keyPrefix}: TLS certificate reloaded`);
      return true;
    } catch (err) {
      const signature = await this.currentSignature().catch(() => "unreadable");
      if (signature !== this.failedSignature) {
        this.failedSignature = signature;
        this.log.warn(
          { certFile: this.files.certFile, err: (err as Error).message },
          `${this.keyPrefix}: new TLS certificate not loaded; still serving the previous one`,
        );
      }
      return false;
    }
  }

  private async currentSignature(): Promise<string> {
    const paths = [this.files.certFile, this.files.keyFile, ...(this.files.clientCAFile !== undefined ? [this.files.clientCAFile] : [])];
    const stats = await Promise.all(paths.map((p) => stat(p)));
    return stats.map((s) => `${s.ino}:${s.size}:${s.mtimeMs}`).join("|");
  }
}
