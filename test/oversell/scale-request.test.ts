import { expect } from "chai";
import { memoryBytes } from "../../src/quantity/memory-bytes.js";
import { scaleCpuRequest, scaleMemoryRequest } from "../../src/oversell/scale-request.js";

describe("scaleCpuRequest", () => {
  const cases: Array<{ text: string; ratio: number; min?: bigint; want: string | undefined }> = [
    { text: "250m", ratio: 2, want: "125m" },
    { text: "2", ratio: 2, want: "1" },
    { text: "0.5", ratio: 2, want: "250m" },
    { text: ".5", ratio: 1.6, want: "312m" }, // 500 / 1.6 = 312.5 -> 312
    { text: "1e3", ratio: 2, want: "500" }, // 1000 cores -> 500 cores
    { text: "3", ratio: 3, want: "1" },
    { text: "1", ratio: 3, want: "333m" }, // 333.33 -> 333
    { text: "100m", ratio: 1.001, want: "99m" }, // 99.9 -> 99
    { text: "10m", ratio: 2, want: undefined }, // floor 10m = original
    { text: "1m", ratio: 2, want: undefined }, // floor above original: unchanged
    { text: "1000u", ratio: 2, want: undefined },
    { text: "0", ratio: 2, want: undefined },
    { text: "40m", ratio: 2, min: 30n, want: "30m" },
  ];
  for (const c of cases) {
    it(`given ${c.text} / ${c.ratio}, returns ${c.want}`, () =>
      expect(scaleCpuRequest(c.text, c.ratio, c.min ?? 10n)?.text).to.equal(c.want));
  }
});

describe("scaleMemoryRequest", () => {
  const MIN = 16n * 1024n * 1024n;
  const cases: Array<{ text: string; ratio: number; want: string | undefined }> = [
    { text: "512Mi", ratio: 2, want: "256Mi" },
    { text: "1Gi", ratio: 1.5, want: "682Mi" }, // 682.67Mi -> 682Mi (0.098 % below)
    { text: "1.5Gi", ratio: 1.5, want: "1Gi" },
    { text: "4Gi", ratio: 3, want: "1365Mi" }, // 1365.33Mi -> 1365Mi
    { text: "1G", ratio: 3, want: "333M" }, // 333.33M -> 333M
    { text: "4G", ratio: 2, want: "2G" },
    { text: "129e6", ratio: 2, want: "64500e3" }, // exponent family kept
    { text: "128974848", ratio: 2, want: "64487k" }, // 64487.424k -> 64487k (decimal family)
    { text: "20Mi", ratio: 2, want: "16Mi" }, // floor
    { text: "16Mi", ratio: 2, want: undefined }, // floor = original
    { text: "1Mi", ratio: 2, want: undefined }, // below the floor already
  ];
  for (const c of cases) {
    it(`given ${c.text} / ${c.ratio}, returns ${c.want}`, () => expect(scaleMemoryRequest(c.text, c.ratio, MIN)?.text).to.equal(c.want));
  }

  it("stays within 0.1 % below the exact target and never above it, for many sizes and ratios", () => {
    for (const base of ["1Gi", "3Gi", "700Mi", "1G", "2500M", "123456789", "7Ti", "9e8"]) {
      for (const ratio of [1.1, 1.25, 1.5, 1.6, 2, 2.7, 3, 7]) {
        const out = scaleMemoryRequest(base, ratio, MIN);
        if (!out) continue;
        const target = memoryBytes(base) / ratio;
        const got = memoryBytes(out.text);
        expect(got, `${base}/${ratio} -> ${out.text}`).to.be.at.most(Math.ceil(target));
        expect(got, `${base}/${ratio} -> ${out.text}`).to.be.at.least(target * 0.999 - 1);
      }
    }
  });
});
