/**
 * How the server decides who a request is: keys in the store, a single key given to it
 * (`apiKey`, tenant "default"), or no key at all (every request is the tenant "default"), in
 * which case it refuses to listen beyond loopback unless told `insecureNoAuth`.
 */
import { describe, expect, it } from "vitest";
import { createServer, InsecureListenError, isLoopbackHost } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { addKey, call, createAgent, injectTestServer } from "../helpers/server.js";
import { hello } from "./canvases.js";

/** TEST-NET-1 (RFC 5737): assigned to no machine, so binding it fails — after the server's own checks. */
const UNASSIGNED_HOST = "192.0.2.1";

async function listenError(options: Parameters<typeof createServer>[0]): Promise<unknown> {
  const app = createServer(options);
  try {
    return await app.listen({ port: 0, host: UNASSIGNED_HOST }).then(() => undefined, (error: unknown) => error);
  } finally {
    await app.close();
  }
}

describe("listening without keys", () => {
  it("is refused beyond loopback, saying why and what to do", async () => {
    const store = new InProcessServerStore();
    const error = await listenError({ store });
    expect(error).toBeInstanceOf(InsecureListenError);
    expect((error as Error).message).toMatch(/^refusing to listen on 192\.0\.2\.1: no API key is configured/);
    expect((error as Error).message).toContain("canvasflow keys create --tenant T --name N");
    expect((error as Error).message).toContain("--insecure-no-auth");
  });

  it("goes ahead with insecureNoAuth, a key in the store, or a single key", async () => {
    const keyed = new InProcessServerStore();
    await addKey(keyed, "t1");
    for (const options of [{ store: new InProcessServerStore(), insecureNoAuth: true }, { store: keyed }, { store: new InProcessServerStore(), apiKey: "ragflow-single" }]) {
      const error = await listenError(options);
      // The address cannot be bound: the server's checks let it try.
      expect(error).not.toBeInstanceOf(InsecureListenError);
      expect((error as NodeJS.ErrnoException).code).toBe("EADDRNOTAVAIL");
    }
  });

  it("tells loopback hosts from the others", () => {
    for (const host of [undefined, "localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]) expect(isLoopbackHost(host), String(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "example.com"]) expect(isLoopbackHost(host), host).toBe(false);
  });

  it("on loopback, serves every request as the tenant default (a stored key still names its tenant)", async () => {
    const server = await injectTestServer({ keys: false });
    const id = await createAgent(server, hello(), "open", "anything");
    const agent = await call(server, `/api/v1/agents/${id}`, { key: null });
    expect(agent.json.data.user_id).toBe("default");
  });
});

describe("a single key (apiKey, --api-key-env)", () => {
  it("is the tenant default; other keys are refused unless stored", async () => {
    const server = await injectTestServer({ keys: false, apiKey: "ragflow-the-one" });
    const id = await createAgent(server, hello(), "single", "ragflow-the-one");
    expect((await call(server, `/api/v1/agents/${id}`, { key: "ragflow-the-one" })).json.data.user_id).toBe("default");
    expect((await call(server, "/api/v1/agents", { key: "ragflow-the-two" })).status).toBe(401);
    expect((await call(server, "/api/v1/agents", { key: null })).status).toBe(401);
    const stored = await addKey(server.store, "t9");
    expect((await call(server, "/api/v1/agents", { key: stored })).json.data.total).toBe(0);
  });
});
