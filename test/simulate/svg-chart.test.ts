import { expect } from "chai";
import { niceCeil, renderLineChart, renderPanelChart } from "../../src/simulate/svg-chart.js";

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

describe("renderLineChart / renderPanelChart", () => {
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
  it("draws one bar per strategy and non-zero figure, one titled panel per unit, and leaves out all-zero groups and empty panels", () => {
    const svg = renderPanelChart({
      title: "t",
      panels: [
        {
          unit: "pod-hours",
          groups: [
            { label: "x", values: [1, 2, 3] },
            { label: "y", values: [0, 0, 0] },
          ],
        },
        { unit: "%", groups: [{ label: "z", values: [0, 0.5, 0] }] },
        { unit: "evictions", groups: [{ label: "e", values: [0, 0, 0] }] },
      ],
      seriesNames: ["a", "b", "c"],
    });
    expect((svg.match(/<rect x=/g) ?? []).length).to.equal(6 + 3); // 2 groups x 3 bars + legend swatches
    expect(svg).to.contain(">pod-hours</text>");
    expect(svg).to.contain(">%</text>"); // the second panel's title
    expect(svg).to.not.contain(">evictions</text>");
    expect(svg).to.not.contain(">y</text>");
  });
  it("given only zeros, says so instead of drawing empty panels", () => {
    const svg = renderPanelChart({
      title: "t",
      panels: [{ unit: "pods", groups: [{ label: "p", values: [0, 0] }] }],
      seriesNames: ["a", "b"],
    });
    expect(svg).to.contain("every figure is 0");
    expect(svg).to.not.contain(">pods</text>");
  });
  it("puts the threshold label in the right margin, outside the plot, and moves the legend clear of it", () => {
    const spec = {
      title: "t",
      xLabel: "h",
      yLabel: "%",
      xOf: (i: number) => i,
      series: [
        { name: "one", values: [0, 100] },
        { name: "two", values: [0, 1] },
      ],
    };
    // A threshold near the top of the axis lands where the legend would start.
    const svg = renderLineChart({ ...spec, threshold: { value: 95, label: "limit" } });
    const label = /<text x="([\d.]+)" y="([\d.]+)" fill="#666">limit<\/text>/.exec(svg);
    expect(label, "threshold label").to.not.equal(null);
    expect(Number(label![1])).to.be.greaterThan(800 - 150);
    const legendYs = [...svg.matchAll(/<rect x="666" y="([\d.]+)"/g)].map((m) => Number(m[1]) + 10);
    expect(legendYs).to.have.length(2);
    for (const y of legendYs) expect(Math.abs(y - Number(label![2])), "legend row vs threshold label").to.be.at.least(14);
  });
});
