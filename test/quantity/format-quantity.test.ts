import { expect } from "chai";
import { canonicalQuantity, formatMemoryBytes } from "../../src/quantity/format-quantity.js";

// Canonical forms the API server writes back (reference "Quantities").
const canonical: Array<{ text: string; want: string }> = [
  { text: "0.5", want: "500m" },
  { text: ".5", want: "500m" },
  { text: "1000m", want: "1" },
  { text: "5000m", want: "5" },
  { text: "1500m", want: "1500m" },
  { text: "1.5", want: "1500m" },
  { text: "1024Mi", want: "1Gi" },
  { text: "1.5Gi", want: "1536Mi" }, // 1.5 * 1024 = 1536
  { text: "307200Ki", want: "300Mi" }, // 307200 / 1024 = 300
  { text: "1000M", want: "1G" },
  { text: "8.1k", want: "8100" },
  { text: "10e2", want: "1e3" },
  { text: "129e6", want: "129e6" },
  { text: "1000u", want: "1m" },
  { text: "5.", want: "5" },
  { text: "+1", want: "1" },
  { text: "4Gi", want: "4Gi" },
  { text: "4G", want: "4G" },
  { text: "0.5Ki", want: "512" }, // binary below 1024 is written in decimal, like Go
  { text: "1.5Ki", want: "1536" },
  { text: "0.5Gi", want: "512Mi" },
  { text: "1e-3", want: "1e-3" },
  { text: "1.5e3", want: "1500" },
  { text: "0.0000000001", want: "1n" }, // below 1n rounds up to 1n
  { text: "0", want: "0" },
  { text: "0Gi", want: "0" },
  { text: "-1.5", want: "-1500m" },
];

describe("canonicalQuantity", () => {
  for (const c of canonical) {
    it(`given ${c.text}, returns ${c.want}`, () => expect(canonicalQuantity(c.text)).to.equal(c.want));
  }
});

describe("formatMemoryBytes", () => {
  const cases: Array<{ bytes: number; format: "binary" | "decimal" | "exponent"; want: string }> = [
    { bytes: 1610612736, format: "binary", want: "1536Mi" },
    { bytes: 1073741824, format: "binary", want: "1Gi" },
    { bytes: 1073741824, format: "decimal", want: "1073741824" }, // never turns 1Gi into 1G
    { bytes: 1_000_000_000, format: "decimal", want: "1G" },
    { bytes: 64_500_000, format: "exponent", want: "64500e3" },
    { bytes: 100, format: "binary", want: "100" },
  ];
  for (const c of cases) {
    it(`given ${c.bytes} bytes (${c.format}), returns ${c.want}`, () => expect(formatMemoryBytes(c.bytes, c.format)).to.equal(c.want));
  }
});
