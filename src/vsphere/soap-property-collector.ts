import type { SoapClient } from "./soap-client.js";
import { child, children, moRefOf, textOf, xsiType, type SoapField, type SoapMoRef, type XmlElement } from "./soap-envelope.js";

/** One managed object's properties as the PropertyCollector returned them: value elements by property path. */
export interface ObjectProps {
  readonly obj: SoapMoRef;
  readonly props: ReadonlyMap<string, XmlElement>;
}

/** The properties to read of each object type, e.g. `{ HostSystem: ["name", "parent"] }`. */
export type PropertyPaths = Readonly<Record<string, readonly string[]>>;

/** Objects per page (`RetrieveOptions.maxObjects`); vCenter may send fewer and a token for the rest. */
export const PAGE_OBJECTS = 1000;

/**
 * Reads `paths` of every object of those types under `container` (recursively) through a
 * ContainerView: CreateContainerView, RetrievePropertiesEx then ContinueRetrievePropertiesEx
 * while a token comes back, DestroyView. The view lives for one read only (views are
 * per session, and a session may be replaced between reads).
 */
export async function retrieveFromContainer(client: SoapClient, container: SoapMoRef, paths: PropertyPaths): Promise<ObjectProps[]> {
  const { viewManager } = await client.serviceContent();
  const created = await client.call("CreateContainerView", viewManager, [
    ["container", { moRef: container }],
    ["type", Object.keys(paths)],
    ["recursive", true],
  ]);
  const view = moRefOf(created[0]);
  if (!view) return [];
  try {
    const selectView = {
      xsiType: "TraversalSpec",
      fields: [
        ["name", "view"],
        ["type", "ContainerView"],
        ["path", "view"],
        ["skip", false],
      ] as SoapField[],
    };
    return await retrieveAll(
      client,
      propertyFilter(paths, [
        ["obj", { moRef: view }],
        ["skip", true],
        ["selectSet", selectView],
      ]),
    );
  } finally {
    await client.call("DestroyView", view, []).catch(() => undefined);
  }
}

/** Reads `paths` of one object (no traversal). */
export async function retrieveObject(client: SoapClient, obj: SoapMoRef, paths: readonly string[]): Promise<ObjectProps | undefined> {
  const found = await retrieveAll(client, propertyFilter({ [obj.type]: paths }, [["obj", { moRef: obj }]]));
  return found[0];
}

function propertyFilter(paths: PropertyPaths, objectSpec: SoapField[]): SoapField {
  const propSet = Object.entries(paths).map(([type, pathSet]) => ({
    fields: [
      ["type", type],
      ["pathSet", pathSet],
    ] as SoapField[],
  }));
  return [
    "specSet",
    {
      fields: [
        ["propSet", propSet],
        ["objectSet", { fields: objectSpec }],
      ],
    },
  ];
}

/**
 * An object's property the collector could not read comes in `missingSet` with its fault
 * (`<missingSet><path/><fault><fault xsi:type="NotAuthenticated">`): an expired session can
 * show up there rather than as a method fault. The property is then left out (unknown).
 */
function reportsNoSession(returnval: readonly XmlElement[]): boolean {
  return returnval.some((result) =>
    children(result, "objects").some((o) =>
      children(o, "missingSet").some((m) => {
        const inner = child(m, "fault");
        const fault = inner ? child(inner, "fault") : undefined;
        return fault !== undefined && xsiType(fault) === "NotAuthenticated";
      }),
    ),
  );
}

async function retrieveAll(client: SoapClient, specSet: SoapField): Promise<ObjectProps[]> {
  const { propertyCollector } = await client.serviceContent();
  const out: ObjectProps[] = [];
  const options: SoapField = ["options", { fields: [["maxObjects", PAGE_OBJECTS]] }];
  let result = (await client.call("RetrievePropertiesEx", propertyCollector, [specSet, options], reportsNoSession))[0];
  for (;;) {
    if (!result) return out;
    for (const content of children(result, "objects")) {
      const obj = moRefOf(child(content, "obj"));
      if (!obj) continue;
      const props = new Map<string, XmlElement>();
      for (const p of children(content, "propSet")) {
        const name = textOf(p, "name");
        const val = child(p, "val");
        if (name !== undefined && val) props.set(name, val);
      }
      out.push({ obj, props });
    }
    const token = textOf(result, "token");
    if (token === undefined || token === "") return out;
    result = (await client.call("ContinueRetrievePropertiesEx", propertyCollector, [["token", token]], reportsNoSession))[0];
  }
}
