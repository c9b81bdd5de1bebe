import type { Application } from "express";
import { counted } from "./counted.js";
import type { MockState } from "./mock-state.js";
import { vcenterRelease } from "./vi-session-routes.js";

/** vim25 releases before the VI/JSON ones, newest first, as a vCenter lists them among its prior versions. */
const OLDER_RELEASES = ["7.0.3.0", "7.0.2.0", "7.0.1.0", "7.0.0.0", "6.7.3", "6.7.2", "6.7.1", "6.7", "6.5", "6.0"];

/**
 * `GET /sdk/vimServiceVersions.xml` (no login): the vCenter's own vim25 release (the newest of
 * `viJsonReleases`) and its prior ones: the other served releases and every older one. A
 * scenario with `viJsonReleases: [7.0.3.0]` thus looks like a vCenter 7.0.3, which lists no 8.0.1.0.
 */
export function mountReleaseListRoute(app: Application, state: MockState): void {
  counted(app, state, "get", "/sdk/vimServiceVersions.xml", (_req, res) => {
    const current = vcenterRelease(state);
    const newer = (v: string) => v.localeCompare(current, "en", { numeric: true }) >= 0;
    const prior = [
      ...state.scenario.viJsonReleases
        .filter((r) => r !== current)
        .sort()
        .reverse(),
      ...OLDER_RELEASES.filter((r) => !newer(r)),
    ];
    const versions = prior.map((v) => `   <version>${v}</version>\n`).join("");
    res
      .status(200)
      .type("text/xml")
      .send(
        `<?xml version="1.0" encoding="UTF-8" ?>\n<namespaces version="1.0">\n <namespace>\n  <name>urn:vim25</name>\n` +
          `  <version>${current}</version>\n  <priorVersions>\n${versions}  </priorVersions>\n </namespace>\n</namespaces>\n`,
      );
  });
}
