import { expect } from "chai";
import type { InventoryView } from "../../src/model/inventory.js";
import type { SourceStatus } from "../../src/model/metrics-source.js";
import { describeSourceDown } from "../../src/server/source-down.js";

const EMPTY: InventoryView = { hosts: new Map(), vms: new Map() };
const POLLED: InventoryView = { hosts: new Map(), vms: new Map(), polledAtMs: Date.parse("2026-11-29T10:00:00Z") };

describe("describeSourceDown", () => {
  const cases: Array<{ name: string; inventory: InventoryView; status?: SourceStatus; want: RegExp | undefined }> = [
    {
      name: "given data, returns nothing (a failing source with data keeps serving it, stale)",
      inventory: POLLED,
      status: { consecutiveFailures: 2, lastError: "x" },
      want: undefined,
    },
    { name: "given no status, returns nothing", inventory: EMPTY, want: undefined },
    {
      name: "given no attempt yet, says the first poll has not finished",
      inventory: EMPTY,
      status: { consecutiveFailures: 0 },
      want: /first poll has not finished/,
    },
    {
      name: "given the first attempt under way, says the first poll has not finished",
      inventory: EMPTY,
      status: { consecutiveFailures: 0, lastAttemptMs: 1 },
      want: /first poll has not finished/,
    },
    {
      name: "given failures and never a success, says down, no successful poll yet, the count and the last error",
      inventory: EMPTY,
      status: { consecutiveFailures: 3, lastAttemptMs: 1, lastError: "answered 404: set vcenter.api: soap" },
      want: /^the vcenter source is down \(no successful poll yet, 3 failed attempts\): answered 404: set vcenter.api: soap$/,
    },
    {
      name: "given data dropped as too old, says since when",
      inventory: EMPTY,
      status: { consecutiveFailures: 40, lastAttemptMs: 2, lastSuccessMs: Date.parse("2026-11-29T09:00:00Z"), lastError: "ECONNREFUSED" },
      want: /no data since 2026-11-29T09:00:00.000Z, 40 failed attempts\): ECONNREFUSED/,
    },
    {
      name: "given logins suspended, gives the refusal",
      inventory: EMPTY,
      status: {
        consecutiveFailures: 1,
        lastAttemptMs: 2,
        lastError: "logins suspended",
        authSuspended: {
          api: "soap",
          error: "vCenter soap authentication failed: login refused (500 InvalidLogin)",
          failedAtMs: 1,
          retryAfterMs: 9,
        },
      },
      want: /1 failed attempt\): vCenter soap authentication failed: login refused \(500 InvalidLogin\)$/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = describeSourceDown(c.inventory, c.status);
      if (c.want === undefined) expect(got).to.equal(undefined);
      else expect(got).to.match(c.want);
    });
  }
});

describe("buildDebugHosts sourceDown (what /ui shows instead of 'polled never')", () => {
  it("given no data and a failing source, carries the reason; given data, null", async () => {
    const { buildDebugHosts } = await import("../../src/server/debug-view.js");
    const { DEFAULT_POLICY } = await import("../fixtures/policy.js");
    const failing: SourceStatus = {
      consecutiveFailures: 2,
      lastAttemptMs: 1,
      lastError: "DEPTH_ZERO_SELF_SIGNED_CERT: set vcenter.caFile",
    };
    expect(buildDebugHosts(EMPTY, DEFAULT_POLICY, 0, failing).sourceDown).to.include("set vcenter.caFile");
    expect(buildDebugHosts(POLLED, DEFAULT_POLICY, 0, failing).sourceDown).to.equal(null);
  });
});
