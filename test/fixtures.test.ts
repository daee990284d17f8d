/**
 * Our own example canvases in fixtures/ (the README's examples): each validates and produces
 * exactly the text it promises.
 */
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCanvas, validateCanvas } from "../src/api.js";
import type { CanvasEvent } from "../src/engine/events.js";
import { expectFinished, lastEvent, messageText, trace } from "./helpers/dsl.js";
import { sendJson, startLoopbackServer, type LoopbackServer } from "./helpers/http.js";

async function run(file: string, request: { query?: string; inputs?: Record<string, unknown> } = {}, options = {}): Promise<CanvasEvent[]> {
  const canvas = await loadCanvas(`fixtures/${file}`, options);
  return canvas.runToEnd(request);
}

describe("fixtures/", () => {
  it.each(readdirSync("fixtures").filter((f) => f.endsWith(".json")))("%s validates without warnings", async (file) => {
    const report = await validateCanvas(`fixtures/${file}`);
    expect(report.issues).toEqual([]);
  });

  it("hello.json greets by query and counts turns", async () => {
    const events = await run("hello.json", { query: "Ada" });
    expect(messageText(events)).toBe("Hello, Ada! This is turn 1.");
    expectFinished(events);
  });

  it("user-fill-up.json pauses for the form, then shows the badge", async () => {
    const canvas = await loadCanvas("fixtures/user-fill-up.json");
    const paused = await canvas.runToEnd({ query: "a badge please" });
    const pause = lastEvent(paused);
    expect(pause).toMatchObject({ event: "user_inputs", data: { tips: 'You said "a badge please". Who is the badge for?' } });
    expect(Object.keys((pause.data as { inputs: object }).inputs)).toEqual(["name", "colour", "note"]);
    const done = await canvas.runToEnd({ inputs: { name: "Ada", colour: "blue" } });
    expect(messageText(done)).toBe("[blue] Ada ");
    expectFinished(done);
  });

  it.each([
    [95, "95: excellent"],
    [72, "72: pass"],
    [12, "12: fail"],
  ])("switch.json routes score %i", async (score, text) => {
    const events = await run("switch.json", { inputs: { score } });
    expect(messageText(events)).toBe(text);
  });

  it("switch.json asks for its required score", async () => {
    const events = await run("switch.json", {});
    expect(trace(events)).toEqual(["workflow_started", "message:Please fill in the required inputs.", "message_end", "user_inputs"]);
  });

  it("iteration.json numbers each word (default input)", async () => {
    const events = await run("iteration.json");
    expect(messageText(events)).toBe("0. alpha\n1. beta\n2. gamma");
    expectFinished(events);
  });

  it("loop.json counts down from env.start with a termination condition", async () => {
    const events = await run("loop.json");
    expect(messageText(events)).toBe("3… 2… 1… liftoff!");
    expectFinished(events);
  });

  it("variables.json remembers across turns", async () => {
    let canvas = await loadCanvas("fixtures/variables.json");
    expect(messageText(await canvas.runToEnd({ query: "Ada" }))).toBe('Hello Ada: visit 1, topics ["Ada"]');
    canvas = await loadCanvas(JSON.parse(JSON.stringify(canvas)));
    expect(messageText(await canvas.runToEnd({ query: "Bob" }))).toBe('Hello Ada: visit 2, topics ["Ada","Bob"]');
  });

  it("data.json selects, sorts and takes the head", async () => {
    const events = await run("data.json");
    expect(messageText(events)).toBe('Cheapest: mug at 6. Top 2: [{"name":"mug","price":6},{"name":"toaster","price":18}]');
  });

  it("loop-iteration-switch.json classifies in an Iteration and leaves a Loop through ExitLoop", async () => {
    const events = await run("loop-iteration-switch.json");
    expect(messageText(events)).toBe("attempt 1; attempt 2; \n3 is small; 8 is big; 1 is small; 12 is big\nstopped after 3 attempts");
    expectFinished(events);
    expect(trace(events).filter((t) => t === "node_finished:Loop:Retry")).toHaveLength(1);
    expect(trace(events).filter((t) => t === "node_finished:Iteration:Classify")).toHaveLength(1);
  });

  describe("invoke.json", () => {
    let server: LoopbackServer;
    let base: string;
    beforeAll(async () => {
      server = await startLoopbackServer((request, res) => {
        if (request.path !== "/weather") {
          res.writeHead(404).end("no such path");
          return;
        }
        sendJson(res, 200, { city: request.query.city ?? null, sky: "clear" });
      });
      base = server.base;
    });
    afterAll(() => server.close());

    const options = { services: { http: { allowPrivateNetwork: true } } };

    it("calls the API with the city from the form", async () => {
      const events = await run("invoke.json", { inputs: { base_url: base } }, options);
      expect(messageText(events)).toBe('{"city":"Lisbon","sky":"clear"}');
      expectFinished(events);
    });

    it("goes to its exception handler when the API fails", async () => {
      const events = await run("invoke.json", { inputs: { base_url: `${base}/missing` } }, options);
      expect(messageText(events)).toMatch(/^The weather service is unavailable: HTTP 404 Not Found from GET http:\/\/127\.0\.0\.1:\d+\/missing\/weather/);
      expectFinished(events);
    });
  });
});
