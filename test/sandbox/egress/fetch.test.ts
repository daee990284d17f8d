/**
 * The guarded fetch (the MCP transports' fetch): each connection is checked when it is made, so a
 * redirect to an address the operator did not list is refused, and a name goes to the address the
 * guard checked. Real loopback servers.
 */
import { describe, expect, it } from "vitest";
import { egressFetch } from "../../../src/sandbox/egress/fetch.js";
import { BlockedAddressError, createEgressPolicy } from "../../../src/sandbox/egress/guard.js";
import { standIn } from "../../helpers/http.js";

describe("egressFetch", () => {
  it("refuses a redirect to an address that is not listed, as the guard's own error", async () => {
    const hidden = await standIn((_request, res) => res.end("internal"));
    const listed = await standIn((_request, res) => {
      res.writeHead(302, { location: `${hidden.base}/secret` });
      res.end();
    });
    const guarded = egressFetch(createEgressPolicy({ allow: [`127.0.0.1:${listed.port}`] }), { role: "test host", connectTimeoutMs: 5000 });
    try {
      const refusal = await guarded(`${listed.base}/start`).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(BlockedAddressError);
      expect((refusal as Error).message).toContain(`test host "127.0.0.1" is 127.0.0.1, a non-public address (loopback)`);
      expect((refusal as Error).message).toContain(`add "127.0.0.1:${hidden.port}"`);
      expect(listed.requests.map((request) => request.path)).toEqual(["/start"]);
      expect(hidden.requests).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it("connects a name to the address the guard checked, keeping the Host header", async () => {
    const server = await standIn((request, res) => res.end(`host=${request.headers.host}`));
    const guarded = egressFetch(createEgressPolicy({ allow: ["api.example.test"], resolver: async () => [{ address: "127.0.0.1", family: 4 }] }), { role: "test host", connectTimeoutMs: 5000 });
    try {
      const response = await guarded(`http://api.example.test:${server.port}/v1`, { method: "POST", body: "x" });
      expect(await response.text()).toBe(`host=api.example.test:${server.port}`);
    } finally {
      await guarded.close();
    }
  });
});
