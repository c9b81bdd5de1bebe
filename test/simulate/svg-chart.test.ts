import { expect } from "chai";
import { niceCeil, renderBarChart, renderLineChart } from "../../src/simulate/svg-chart.js";

describe("niceCeil", () => {
  const cases = [
    { v: 0, want: 1 },
    { v: 0.7, want: 1 },
    { v: 3, want: 5 },
    { v: 12, want: 20 },
    { v: 50, want: 50 },
    { v: 51, want: 100 },
  ];
  for (const c of cases) it(`niceCeil(${c.v}) = ${c.want}`, () => expect(niceCeil(c.v)).to.be.closeTo(c.want, 1e-9));
});

describe("renderLineChart / renderBarChart", () => {
  it("draws one path per series, downsampled to at most 600 points, with a legend and escaped text", () => {
    const svg = renderLineChart({
      title: "a < b & c",
      xLabel: "hours",
      yLabel: "%",
      series: [
        { name: "one", values: Float32Array.from({ length: 4320 }, (_, i) => i % 50) },
        { name: "two", values: new Float32Array(4320) },
      ],
      xOf: (i) => i / 180,
      threshold: { value: 5, label: "5 %" },
    });
    const paths = svg.match(/<path d="([^"]*)"/g) ?? [];
    expect(paths).to.have.length(2);
    expect((paths[0]!.match(/L/g) ?? []).length + 1).to.equal(600);
    expect(svg).to.contain("a &lt; b &amp; c");
    expect(svg.trimEnd().endsWith("</svg>")).to.equal(true);
  });
  it("draws one bar per strategy and figure", () => {
    const svg = renderBarChart({ title: "t", groups: [{ label: "x", values: [1, 2, 3] }, { label: "y", values: [0, 0, 0] }], seriesNames: ["a", "b", "c"] });
    expect((svg.match(/<rect x=/g) ?? []).length).to.equal(6 + 3); // bars + legend swatches
  });
});
