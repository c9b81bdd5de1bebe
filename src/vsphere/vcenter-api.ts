/** Which vCenter API a request went to: the two JSON APIs or vim25 over SOAP (a metric label; never a secret). */
export type VcenterApi = "automation" | "vijson" | "soap";

/** What went wrong, coarse enough for a metric label. */
export type VcenterErrorKind = "network" | "http" | "auth" | "response" | "config";
