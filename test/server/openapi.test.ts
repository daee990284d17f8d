/**
 * The OpenAPI document at /openapi.json and its pages at /docs (docs/server.md, OpenAPI): an
 * OpenAPI 3.1 document whose request schemas are the ones the routes validate with
 * (schemas/server/*.json), with every reference resolvable and every path parameter declared;
 * served without a key; `openapi.enabled: false` takes both away.
 */
import { describe, expect, it } from "vitest";
import { serverSchema } from "../../src/server/validation.js";
import { call, injectTestServer } from "../helpers/server.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Doc = any;

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head"];

/** Every `$ref` in the document, with where it is. */
function refs(node: unknown, at = "#"): Array<{ at: string; ref: string }> {
  if (Array.isArray(node)) return node.flatMap((item, i) => refs(item, `${at}/${i}`));
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => (key === "$ref" && typeof value === "string" ? [{ at, ref: value }] : refs(value, `${at}/${key}`)));
}

function resolvePointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<any>((node, part) => (node === undefined ? undefined : node[part]), doc);
}

/** The schema a ref or an inline schema stands for. */
function deref(doc: Doc, schema: any): any {
  return schema?.$ref ? resolvePointer(doc, schema.$ref) : schema;
}

describe("OpenAPI", () => {
  it("/openapi.json is an OpenAPI 3.1 document of the API, from the schemas the routes validate with", async () => {
    const server = await injectTestServer();
    const answer = await call(server, "/openapi.json", { key: null });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const doc: Doc = answer.json;

    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(doc.security).toEqual([{ apiKey: [] }]);

    // Structure: each path item holds operations, each with responses; every template parameter is declared.
    expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(14);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(path.startsWith("/"), path).toBe(true);
      const operations = Object.entries<any>(item).filter(([method]) => METHODS.includes(method));
      expect(operations.length, path).toBeGreaterThan(0);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, operation] of operations) {
        expect(Object.keys(operation.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
        const inPath = (operation.parameters ?? []).filter((p: any) => p.in === "path");
        expect(inPath.map((p: any) => p.name).sort(), `${method} ${path}`).toEqual([...templated].sort());
        for (const parameter of inPath) expect(parameter.required).toBe(true);
      }
    }
    // Every reference points into the document.
    for (const { at, ref } of refs(doc)) expect(resolvePointer(doc, ref), `${at}: ${ref}`).toBeDefined();

    // The completion routes, with the request schemas the server validates with.
    const native = serverSchema("completion.schema.json") as unknown as { properties: Record<string, unknown> };
    const openAi = serverSchema("openai-completion.schema.json") as unknown as { properties: Record<string, unknown> };
    for (const [path, schema] of [
      ["/api/v1/agents/chat/completions", native],
      ["/api/v1/agents/{agent_id}/completions", native],
      ["/api/v1/agents_openai/{agent_id}/chat/completions", openAi],
    ] as const) {
      const operation = doc.paths[path]?.post;
      expect(operation, path).toBeDefined();
      expect(operation.tags).toEqual(["completions"]);
      const body = deref(doc, operation.requestBody.content["application/json"].schema);
      expect(Object.keys(body.properties).sort(), path).toEqual(Object.keys(schema.properties).sort());
      expect(operation.responses["429"]).toBeDefined();
    }
    // messages: the OpenAI schema's own definition, referenced from both.
    const messages = deref(doc, deref(doc, doc.paths["/api/v1/agents/chat/completions"].post.requestBody.content["application/json"].schema).properties.messages);
    expect(messages.items.required).toEqual(["role"]);
    expect(doc.components.schemas).toHaveProperty("completion");
    expect(doc.components.schemas).toHaveProperty("openai-completion");

    // The query string of the lists, parameter by parameter.
    const list = doc.paths["/api/v1/agents"].get.parameters.filter((p: any) => p.in === "query").map((p: any) => p.name);
    expect(list).toEqual(expect.arrayContaining(["page", "page_size", "orderby", "desc", "keywords"]));
    // Health needs no key; the API does.
    expect(doc.paths["/api/v1/system/healthz"].get.security).toEqual([]);
    expect(doc.paths["/api/v1/agents"].get.security).toBeUndefined();
    // Not documented: the document itself, the pages (the playground's too), /metrics.
    for (const hidden of ["/openapi.json", "/docs", "/metrics", "/", "/playground/app.js", "/playground/app.css"]) expect(doc.paths).not.toHaveProperty(hidden);
  });

  it("/docs serves the HTML pages, without a key", async () => {
    const server = await injectTestServer();
    const page = await call(server, "/docs", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<html/i);
    expect(page.text).toContain("swagger");
    // The scripts it loads are served, and so is the document it shows.
    const scripts = [...page.text.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const script = await call(server, new URL(src, `${server.base}/docs/`).pathname, { key: null });
      expect(script.status, src).toBe(200);
      expect(script.headers.get("content-type"), src).toMatch(/javascript/);
    }
    expect((await call(server, "/docs/json", { key: null })).json.openapi).toBe("3.1.0");
  });

  it("openapi.enabled: false serves neither", async () => {
    const server = await injectTestServer({ openapi: { enabled: false } });
    for (const path of ["/openapi.json", "/docs"]) expect((await call(server, path, { key: null })).status).toBe(404);
  });
});
