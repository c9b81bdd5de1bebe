import { expect } from "chai";
import { PROFILE_METRICS } from "../../src/model/host-forecast.js";
import { bucketOf, DAY_MS, LoadProfile, PROFILE_DAYS } from "../../src/placement/load-profile.js";

const READY = PROFILE_METRICS.indexOf("cpuReadyPercent");
const at = (hhmm: string, dayOffset = 0) => Date.parse(`2026-11-29T${hhmm}:00Z`) + dayOffset * DAY_MS;

describe("LoadProfile", () => {
  it("given a sample stamped at the end of its interval, counts it in the bucket of the interval's midpoint", () => {
    const p = new LoadProfile();
    // 1800 s sample stamped 10:30 covers 10:00-10:30: bucket 20 (10:00), not 21.
    p.record(at("10:30"), 1800, { cpuReadyPercent: 4 });
    expect(p.bucketMeans(READY, 20, at("23:59"), [])).to.deep.equal([4]);
    expect(p.bucketMeans(READY, 21, at("23:59"), [])).to.deep.equal([]);
  });

  it("given samples of different lengths in one bucket, weighs them by the seconds they cover", () => {
    const p = new LoadProfile();
    p.record(at("10:30"), 1800, { cpuReadyPercent: 10 });
    p.record(at("10:10"), 20, { cpuReadyPercent: 1 });
    // (10 x 1800 + 1 x 20) / 1820 = 9.901...
    expect(p.bucketMeans(READY, 20, at("23:59"), [])[0]).to.be.closeTo((10 * 1800 + 20) / 1820, 1e-9);
  });

  it("given unknown, negative or non-finite values, leaves those metrics without data", () => {
    const p = new LoadProfile();
    p.record(at("10:10"), 20, { cpuReadyPercent: -1, cpuUsagePercent: Number.NaN });
    p.record(at("10:10"), 0, { cpuReadyPercent: 3 });
    expect(p.bucketMeans(READY, 20, at("23:59"), [])).to.deep.equal([]);
    expect(p.bucketMeans(PROFILE_METRICS.indexOf("cpuUsagePercent"), 20, at("23:59"), [])).to.deep.equal([]);
    expect(p.empty).to.equal(false);
  });

  it("given a day 8 days later, replaces the day it shares a slot with, and ignores samples older than kept", () => {
    const p = new LoadProfile();
    p.record(at("10:10"), 20, { cpuReadyPercent: 2 });
    p.record(at("10:10", PROFILE_DAYS + 1), 20, { cpuReadyPercent: 8 });
    expect(p.bucketMeans(READY, 20, at("10:10", PROFILE_DAYS + 1), [])).to.deep.equal([8]);
    p.record(at("10:10"), 20, { cpuReadyPercent: 50 });
    expect(p.bucketMeans(READY, 20, at("10:10", PROFILE_DAYS + 1), [])).to.deep.equal([8]);
  });

  it("given a query time, returns the bucket's occurrences starting in (time - 7 days, time]", () => {
    const p = new LoadProfile();
    for (let d = 0; d < 3; d++) p.record(at("10:10", d), 20, { cpuReadyPercent: d + 1 });
    // At day 1 09:00, day 1's 10:00 bucket has not started: only day 0 counts.
    expect(p.bucketMeans(READY, 20, at("09:00", 1), []).sort()).to.deep.equal([1]);
    expect(p.bucketMeans(READY, 20, at("10:00", 1), []).sort()).to.deep.equal([1, 2]);
    // From day 7 10:00, day 0's 10:00 bucket started exactly 7 days before: out.
    expect(p.bucketMeans(READY, 20, at("10:00", 7), []).sort()).to.deep.equal([2, 3]);
  });

  it("given times around midnight UTC, buckets by UTC time of day", () => {
    expect(bucketOf(at("00:00"))).to.equal(0);
    expect(bucketOf(at("23:59"))).to.equal(47);
    expect(bucketOf(at("14:29"))).to.equal(28);
  });
});
