import type { Logger } from "../observability/logger.js";

/** A clock offset above this is logged (once) as a misconfigured clock. */
const CLOCK_OFFSET_WARN_MS = 30_000;

/**
 * vCenter's clock minus the local one, as last measured; logs once when it goes beyond 30 s
 * and once when it comes back.
 */
export class ClockOffsetKeeper {
  private offset: number | undefined;
  private warned = false;

  constructor(
    private readonly log: Logger,
    private readonly onMeasured: (offsetSeconds: number) => void,
  ) {}

  /** ms; undefined before the first measurement. */
  offsetMs(): number | undefined {
    return this.offset;
  }

  record(offsetMs: number): void {
    this.offset = offsetMs;
    this.onMeasured(offsetMs / 1000);
    if (Math.abs(offsetMs) > CLOCK_OFFSET_WARN_MS) {
      if (!this.warned) {
        this.warned = true;
        this.log.warn(
          { offsetSeconds: Math.round(offsetMs / 1000) },
          "vCenter's clock differs from the local clock by more than 30 s; sample times are converted to the local clock (check NTP on both)",
        );
      }
    } else if (this.warned) {
      this.warned = false;
      this.log.info({ offsetSeconds: Math.round(offsetMs / 1000) }, "vCenter's clock agrees with the local clock again");
    }
  }
}
