import { expect } from "chai";
import { DAY_MS, LoadProfile } from "../../src/placement/load-profile.js";
import { buildHostForecast, MIN_TRUSTED_DAYS, peakWithin, percentile, predictedPeak } from "../../src/placement/predicted-peak.js";

const at = (hhmm: string, dayOffset = 0) => Date.parse(`2026-11-29T${hhmm}:00Z`) + dayOffset * DAY_MS;
const H = 3_600_000;

/** Seven past days: ready 1 % all day, and at 14:00-14:30 the day's index + 1 (1..7 %); today until 10:00. */
function weekProfile(): LoadProfile {
  const p = new LoadProfile();
  for (let d = -7; d < 0; d++) {
    for (let b = 0; b < 48; b++) {
      const endMs = at("00:00", d) + (b + 1) * 1800_000;
      p.record(endMs, 1800, { cpuReadyPercent: b === 28 ? d + 8 : 1, memUsagePercent: 50 });
    }
  }
  return p;
}

describe("percentile", () => {
  const cases: Array<{ name: string; values: number[]; p: number; want: number }> = [
    { name: "one value is its own p90", values: [5], p: 90, want: 5 },
    // rank (2 - 1) x 0.9 = 0.9: 1 + 0.9 x (2 - 1)
    { name: "two values interpolate at rank 0.9", values: [2, 1], p: 90, want: 1.9 },
    // rank 6 x 0.9 = 5.4: 6 + 0.4 x (7 - 6)
    { name: "seven days: 0.6 x second highest + 0.4 x highest", values: [7, 1, 2, 3, 4, 5, 6], p: 90, want: 6.4 },
  ];
  for (const c of cases) it(c.name, () => expect(percentile(c.values, c.p)).to.be.closeTo(c.want, 1e-9));
});

describe("predictedPeak", () => {
  it("given an empty profile, predicts nothing", () => {
    expect(predictedPeak(new LoadProfile(), at("10:00"), 24 * H)).to.deep.equal({});
  });

  it("given a week of a 14:00 peak, predicts the p90 of the seven days at 14:00 over the next 24 h", () => {
    const peak = predictedPeak(weekProfile(), at("10:00"), 24 * H);
    expect(peak.cpuReadyPercent?.value).to.be.closeTo(6.4, 1e-9);
    expect(peak.cpuReadyPercent?.minuteOfDay).to.equal(14 * 60);
    expect(peak.cpuReadyPercent?.days).to.equal(7);
    expect(peak.memUsagePercent?.value).to.equal(50);
  });

  const horizons: Array<{ name: string; fromMs: number; horizonMs: number; want: number | undefined }> = [
    { name: "a horizon ending at 14:00 does not reach the peak", fromMs: at("10:00"), horizonMs: 4 * H, want: 1 },
    { name: "a horizon 1 ms into the 14:00 bucket reaches it", fromMs: at("10:00"), horizonMs: 4 * H + 1, want: 6.4 },
    // The last 7 occurrences of 14:00 before today 15:00: today (not recorded) and 6 past days, 2..7 %: rank 4.5 -> 6.5
    {
      name: "from 15:00, tomorrow's 14:00 lies within 24 h, predicted from the 6 recorded of its last 7 days",
      fromMs: at("15:00"),
      horizonMs: 24 * H,
      want: 6.5,
    },
    { name: "from 15:00, 23 h stop short of tomorrow's 14:00", fromMs: at("15:00"), horizonMs: 23 * H, want: 1 },
    { name: "a zero horizon predicts nothing", fromMs: at("10:00"), horizonMs: 0, want: undefined },
  ];
  for (const c of horizons) {
    it(c.name, () => {
      const v = predictedPeak(weekProfile(), c.fromMs, c.horizonMs).cpuReadyPercent?.value;
      if (c.want === undefined) expect(v).to.equal(undefined);
      else expect(v).to.be.closeTo(c.want, 1e-9);
    });
  }

  it("given history older than the last 7 days only, predicts nothing from it", () => {
    expect(predictedPeak(weekProfile(), at("10:00", 8), 24 * H)).to.deep.equal({});
  });
});

describe("buildHostForecast / peakWithin", () => {
  it("given every horizon up to a day, the O(1) lookup equals the direct prediction", () => {
    const profile = weekProfile();
    const fromMs = at("10:17");
    const forecast = buildHostForecast(profile, fromMs)!;
    for (let minutes = 1; minutes <= 26 * 60; minutes += 7) {
      const horizonMs = minutes * 60_000;
      expect(peakWithin(forecast, horizonMs)).to.deep.equal(predictedPeak(profile, fromMs, horizonMs));
    }
  });

  it("given a mid-bucket start, a 30-minute horizon covers the current and the next bucket", () => {
    const p = new LoadProfile();
    for (const d of [-3, -2, -1]) {
      p.record(at("10:30", d), 1800, { cpuUsagePercent: 20 });
      p.record(at("11:00", d), 1800, { cpuUsagePercent: 60 });
    }
    const forecast = buildHostForecast(p, at("10:15"))!;
    expect(peakWithin(forecast, 15 * 60_000).cpuUsagePercent?.value).to.equal(20);
    expect(peakWithin(forecast, 30 * 60_000).cpuUsagePercent).to.deep.equal({ value: 60, minuteOfDay: 630, days: 3 });
  });
});

describe("buildHostForecast: trusted history only (issue 26 §2)", () => {
  /** `days` past days of ready 12 % at 14:00-14:30 and 1 % otherwise. */
  function profileOf(days: number): LoadProfile {
    const p = new LoadProfile();
    for (let d = -days; d < 0; d++)
      for (let b = 0; b < 48; b++) p.record(at("00:00", d) + (b + 1) * 1800_000, 1800, { cpuReadyPercent: b === 28 ? 12 : 1 });
    return p;
  }
  const cases: Array<{ name: string; days: number; want: number | undefined }> = [
    { name: "given one day of history, returns no forecast (the present alone decides)", days: 1, want: undefined },
    { name: "given two days, returns no forecast", days: 2, want: undefined },
    { name: "given three days (MIN_TRUSTED_DAYS), returns the 14:00 peak", days: MIN_TRUSTED_DAYS, want: 12 },
  ];
  for (const c of cases)
    it(c.name, () => expect(buildHostForecast(profileOf(c.days), at("10:00"))?.byBuckets[47]?.cpuReadyPercent?.value).to.equal(c.want));

  it("given three days in the morning buckets and one in the afternoon's, predicts from the morning's alone", () => {
    const p = profileOf(1);
    for (const d of [-3, -2]) for (let b = 0; b < 24; b++) p.record(at("00:00", d) + (b + 1) * 1800_000, 1800, { cpuReadyPercent: 1 });
    const peak = buildHostForecast(p, at("00:00"))!.byBuckets[47]!.cpuReadyPercent!;
    // 00:00-12:00: three days of 1 %; 14:00's 12 % was seen on one day only
    expect(peak).to.deep.equal({ value: 1, minuteOfDay: 0, days: 3 });
  });
});

describe("LoadProfile.bucketPercentiles cache", () => {
  it("given samples recorded between builds and a later half hour, rebuilds exactly what a fresh profile gives", () => {
    const cached = weekProfile();
    const samples: Array<[number, number]> = [
      [at("10:10"), 9],
      [at("10:40"), 3],
      [at("14:10", -1), 40],
    ];
    buildHostForecast(cached, at("10:05"));
    for (const [i, [ms, v]] of samples.entries()) {
      cached.record(ms, 20, { cpuReadyPercent: v });
      const fresh = weekProfile();
      for (const [ms2, v2] of samples.slice(0, i + 1)) fresh.record(ms2, 20, { cpuReadyPercent: v2 });
      for (const fromMs of [at("10:20"), at("10:50"), at("14:15")]) {
        expect(buildHostForecast(cached, fromMs)!.byBuckets, `sample ${i} from ${new Date(fromMs).toISOString()}`).to.deep.equal(
          buildHostForecast(fresh, fromMs)!.byBuckets,
        );
      }
    }
  });
});

describe("buildHostForecast: CPU usage per half hour (what the correlated-group learner reads)", () => {
  it("given days of CPU usage at 14:00 and fewer days elsewhere, gives each trusted bucket's p90 and NaN for the others", () => {
    const p = new LoadProfile();
    // seven days of 14:00-14:30 (bucket 28) at 60 + day index (61..67 %); 08:00 (bucket 16) on two days only
    for (let d = -7; d < 0; d++) p.record(at("14:30", d), 1800, { cpuUsagePercent: 68 + d });
    for (let d = -2; d < 0; d++) p.record(at("08:30", d), 1800, { cpuUsagePercent: 90 });
    const byBucket = buildHostForecast(p, at("10:00"))!.cpuUsageByBucket!;
    // p90 of 61..67: 0.6 x 66 + 0.4 x 67 = 66.4
    expect(byBucket[28]).to.be.closeTo(66.4, 1e-9);
    expect(MIN_TRUSTED_DAYS).to.be.above(2);
    expect(byBucket[16]).to.be.NaN;
    expect(byBucket[0]).to.be.NaN;
  });
});
