import { expect } from "chai";
import type { HostView } from "../../src/model/inventory.js";
import { inHostPool } from "../../src/placement/host-pool.js";
import type { HostPool } from "../../src/placement/policy.js";
import { hostView } from "../fixtures/inventory.js";

const pool = (over: Partial<HostPool>): HostPool => ({ clusters: [], hostNames: [], ...over });
const inProd = hostView({ id: "host-1", name: "esx-01.lab", clusterName: "prod" });
const unclustered = hostView({ id: "host-2", name: "esx-01.lab" });

const cases: Array<{ name: string; host: HostView; pool: HostPool; want: boolean }> = [
  { name: "given its cluster listed, returns true", host: inProd, pool: pool({ clusters: ["prod"] }), want: true },
  { name: "given another cluster listed, returns false", host: inProd, pool: pool({ clusters: ["batch"] }), want: false },
  {
    name: "given a cluster hvx does not know, returns true (no opinion)",
    host: unclustered,
    pool: pool({ clusters: ["batch"] }),
    want: true,
  },
  { name: "given a matching name pattern, returns true", host: inProd, pool: pool({ hostNames: ["esx-0*.lab"] }), want: true },
  {
    name: "given a pattern matching case-insensitively (DNS names), returns true",
    host: inProd,
    pool: pool({ hostNames: ["ESX-01.LAB"] }),
    want: true,
  },
  {
    name: "given a pattern matching only part of the name, returns false (anchored)",
    host: inProd,
    pool: pool({ hostNames: ["esx-0"] }),
    want: false,
  },
  {
    name: "given a '.' in the pattern, matches only a dot",
    host: hostView({ name: "esx-01xlab" }),
    pool: pool({ hostNames: ["esx-01.lab"] }),
    want: false,
  },
  {
    name: "given the second of two patterns matching, returns true",
    host: inProd,
    pool: pool({ hostNames: ["gpu-*", "esx-*"] }),
    want: true,
  },
  {
    name: "given its cluster listed but its name unmatched, returns false (every criterion holds)",
    host: inProd,
    pool: pool({ clusters: ["prod"], hostNames: ["gpu-*"] }),
    want: false,
  },
];

describe("inHostPool", () => {
  for (const c of cases) it(c.name, () => expect(inHostPool(c.host, c.pool)).to.equal(c.want));
});
