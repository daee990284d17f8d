import { describe, expect, it } from "vitest";
import { loadCanvas } from "../../src/index.js";

const dsl = {
  components: {
    begin: { obj: { component_name: "Begin", params: { prologue: "hi" } }, downstream: ["UserFillUp:Ask"], upstream: [] },
    "UserFillUp:Ask": {
      obj: { component_name: "UserFillUp", params: { tips: "Name please ({sys.query})", inputs: { name: { name: "Name", type: "line", optional: false } } } },
      downstream: ["Message:Hello"],
      upstream: ["begin"],
    },
    "Message:Hello": { obj: { component_name: "Message", params: { content: ["Hello {UserFillUp:Ask@name}!"] } }, downstream: [], upstream: ["UserFillUp:Ask"] },
  },
  globals: {},
};

describe("smoke", () => {
  it("pauses and resumes", async () => {
    const canvas = await loadCanvas(dsl);
    const first = await canvas.runToEnd({ query: "q1" });
    console.log(JSON.stringify(first.map((e) => [e.event, e.data]), null, 0));
    const snap = JSON.parse(JSON.stringify(canvas));
    const again = await loadCanvas(snap);
    const second = await again.runToEnd({ inputs: { name: "Ada" } });
    console.log(JSON.stringify(second.map((e) => [e.event, e.data]), null, 0));
    expect(second.at(-1)?.event).toBe("workflow_finished");
  });
});
