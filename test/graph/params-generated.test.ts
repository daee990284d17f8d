import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { componentNames, GENERATED_PATH, graphParamsSource } from "../../scripts/graph-types.mjs";

describe("src/graph/params.generated.ts", () => {
  it("holds exactly what the component schemas give today (else run `npm run graph:types`)", async () => {
    const stored = readFileSync(GENERATED_PATH, "utf8");
    expect(stored === (await graphParamsSource()), "src/graph/params.generated.ts is stale: run `npm run graph:types`").toBe(true);
  });

  it("types every component that has a schema, and nothing else", () => {
    const stored = readFileSync(GENERATED_PATH, "utf8");
    const typed = [...stored.slice(stored.indexOf("export interface BuiltinParams")).matchAll(/^ {2}(\w+): /gm)].map((m) => m[1]);
    expect(typed).toEqual(componentNames());
    expect(typed).toEqual(expect.arrayContaining(["Begin", "Iteration", "LLM", "Message", "Retrieval", "Switch"]));
  });
});
