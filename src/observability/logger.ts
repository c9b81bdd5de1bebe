import { pino, type Logger as PinoLogger } from "pino";

export type Logger = PinoLogger;

/**
 * Paths pino blanks out wherever they appear in a log object. A second line of defence:
 * code must not put secrets in log objects in the first place.
 */
const REDACT_PATHS = [
  "password",
  "*.password",
  "token",
  "*.token",
  "sessionId",
  "*.sessionId",
  "headers.authorization",
  "*.headers.authorization",
  'headers["vmware-api-session-id"]',
  '*.headers["vmware-api-session-id"]',
];

/** Structured JSON logs on stdout (or `destination`), one object a line. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, base: { app: "hvx" }, redact: { paths: REDACT_PATHS, censor: "<redacted>" } };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that drops everything: for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
