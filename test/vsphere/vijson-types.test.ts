import { expect } from "chai";
import { z } from "zod";
import { perfEntityMetricSchema } from "../../src/vsphere/vijson-types.js";

const reply = () => [
  {
    _typeName: "PerfEntityMetric",
    entity: { _typeName: "ManagedObjectReference", type: "VirtualMachine", value: "vm-1" },
    sampleInfo: [
      { _typeName: "PerfSampleInfo", timestamp: "2026-11-29T10:05:00Z", interval: 300 },
      { _typeName: "PerfSampleInfo", timestamp: "2026-11-29T10:10:00Z", interval: 300 },
    ],
    value: [{ _typeName: "PerfMetricIntSeries", id: { _typeName: "PerfMetricId", counterId: 7013, instance: "" }, value: [100, -1] }],
  },
];
type Reply = ReturnType<typeof reply>;

const schema = z.array(perfEntityMetricSchema);
/** The first issue as parseBody reports it: its path and message. */
const firstIssue = (body: unknown): string | undefined => {
  const r = schema.safeParse(body);
  return r.success ? undefined : `${r.error.issues[0]!.path.join(".")}: ${r.error.issues[0]!.message}`;
};

const bad: Array<{ name: string; spoil: (r: Reply) => void; want: string }> = [
  {
    name: "a series value that is a string",
    spoil: (r) => ((r[0]!.value[0]!.value as unknown[])[1] = "7"),
    want: "0.value.0.value: expected an array of numbers",
  },
  {
    name: "a series value that is not an array",
    spoil: (r) => ((r[0]!.value[0] as { value: unknown }).value = 5),
    want: "0.value.0.value: expected an array of numbers",
  },
  {
    name: "a series whose counterId is a string",
    spoil: (r) => ((r[0]!.value[0]!.id as { counterId: unknown }).counterId = "7013"),
    want: "0.value.0.id.counterId: expected an integer",
  },
  {
    name: "a series whose instance is a number",
    spoil: (r) => ((r[0]!.value[0]!.id as { instance: unknown }).instance = 0),
    want: "0.value.0.id.instance: expected a string",
  },
  {
    name: "series that are not an array",
    spoil: (r) => ((r[0] as { value: unknown }).value = { id: 1 }),
    want: "0.value: expected an array of series",
  },
  {
    name: "a null series",
    spoil: (r) => ((r[0]!.value as unknown[])[0] = null),
    want: "0.value.0: expected a series object",
  },
  {
    name: "a sample without its timestamp",
    spoil: (r) => delete (r[0]!.sampleInfo[1] as { timestamp?: string }).timestamp,
    want: "0.sampleInfo: expected an array of {timestamp: string, interval: number}",
  },
  {
    name: "a sample whose interval is a string",
    spoil: (r) => ((r[0]!.sampleInfo[0] as { interval: unknown }).interval = "300"),
    want: "0.sampleInfo: expected an array of {timestamp: string, interval: number}",
  },
  {
    name: "a null sample",
    spoil: (r) => ((r[0]!.sampleInfo as unknown[])[0] = null),
    want: "0.sampleInfo: expected an array of {timestamp: string, interval: number}",
  },
];

describe("perfEntityMetricSchema", () => {
  it("given a well-formed reply, returns every field as it came (the fields hvx does not read included)", () => {
    expect(schema.parse(reply())).to.deep.equal(reply());
  });

  it("given an entity without sampleInfo and series, accepts it", () => {
    const { sampleInfo: _s, value: _v, ...bare } = reply()[0]!;
    expect(schema.parse([bare])).to.deep.equal([bare]);
  });

  for (const c of bad) {
    it(`given ${c.name}, rejects it naming the array's path, not the value`, () => {
      const r = reply();
      c.spoil(r);
      expect(firstIssue(r)).to.equal(c.want);
    });
  }
});
