/** Which of vCenter's two JSON APIs a request went to (a metric label; never a secret). */
export type VcenterApi = "automation" | "vijson";

/** What went wrong, coarse enough for a metric label. */
export type VcenterErrorKind = "network" | "http" | "auth" | "response" | "config";
