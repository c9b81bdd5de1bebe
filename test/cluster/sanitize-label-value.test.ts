import { expect } from "chai";
import { sanitizeLabelValue } from "../../src/cluster/sanitize-label-value.js";

describe("sanitizeLabelValue", () => {
  const long = `esx-${"a".repeat(70)}`;
  const cases: Array<{ name: string; input: string; want: string | undefined }> = [
    { name: "given a plain host name, keeps it", input: "esx-07.lab.local", want: "esx-07.lab.local" },
    { name: "given spaces and slashes, replaces them with dashes", input: "esx 07/rack:2", want: "esx-07-rack-2" },
    { name: "given leading and trailing punctuation, trims to alphanumerics", input: "_.esx-07-.", want: "esx-07" },
    { name: "given more than 63 characters, truncates to 63", input: long, want: long.slice(0, 63) },
    { name: "given truncation ending in a dash, trims it", input: `${"a".repeat(62)}-b`, want: "a".repeat(62) },
    { name: "given nothing usable, returns undefined", input: "---", want: undefined },
  ];
  for (const t of cases) it(t.name, () => expect(sanitizeLabelValue(t.input)).to.equal(t.want));

  it("given any input, returns a valid label value", () => {
    for (const input of ["ä-host", "x".repeat(100), "a_b", "ESX.07", "  spaced  "]) {
      const v = sanitizeLabelValue(input);
      if (v !== undefined) expect(v).to.match(/^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/);
    }
  });
});
