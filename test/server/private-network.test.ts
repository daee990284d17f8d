/**
 * The egress guard in the server: every connection a tenant's canvas makes (Invoke, ExeSQL,
 * Email) is refused for non-public addresses unless the server's own settings allow it (config
 * `server.allowPrivateNetwork` for every address, `egress.allow` for listed ones; createServer's
 * `allowPrivateNetwork` and `egress`). The environment variable that turns it off for
 * `canvasflow run` does not reach the server. Targets are real listeners on loopback: a stand-in
 * HTTP server, this machine's PostgreSQL, an SMTP server started by the test.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, SERVER_PRIVATE_NETWORK_HINT } from "../../src/server/app.js";
import { InProcessServerStore } from "../../src/backends/process/server-store.js";
import { ServerOptionsError } from "../../src/server/settings.js";
import { canvasDsl, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { call, createAgent, startTestServer } from "../helpers/server.js";

const COMPLETIONS = "/api/v1/agents/chat/completions";

function invokeCanvas(url: string) {
  return canvasDsl({
    begin: node("Begin", {}, ["Invoke:Local"]),
    "Invoke:Local": node("Invoke", { url, method: "get", timeout: 5 }, ["Message:Show"]),
    "Message:Show": node("Message", { content: ["{Invoke:Local@result}"] }),
  });
}

/** An agent that runs `sql` on the PostgreSQL of this machine (127.0.0.1:5432, trust authentication). */
function exeSqlCanvas(sql: string) {
  return canvasDsl({
    begin: node("Begin", {}, ["ExeSQL:Db"]),
    "ExeSQL:Db": node("ExeSQL", { db_type: "postgres", host: "127.0.0.1", port: 5432, database: "test", username: "postgres", password: "", sql }, ["Message:Show"]),
    "Message:Show": node("Message", { content: ["{ExeSQL:Db@formalized_content}"] }),
  });
}

/** An agent whose Email sends "listed relay" with `smtp` params (empty: the config's smtp). */
function emailCanvas(smtp: Record<string, unknown>) {
  return canvasDsl({
    begin: node("Begin", {}, ["Email:Send"]),
    "Email:Send": node("Email", { to_email: "someone@example.org", subject: "listed relay", content: "<p>hi</p>", ...smtp }, ["Message:Show"]),
    "Message:Show": node("Message", { content: ["sent: {Email:Send@success}"] }),
  });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the private-network guard in the server", () => {
  it("refuses an Invoke to loopback by default, saying how the server allows it, even with CANVASFLOW_ALLOW_PRIVATE_NETWORK=1", async () => {
    vi.stubEnv("CANVASFLOW_ALLOW_PRIVATE_NETWORK", "1");
    const target = await standIn((_request, res) => res.end("reached"));
    const server = await startTestServer();
    const agentId = await createAgent(server, invokeCanvas(`${target.base}/ping`));
    const answer = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "go" } });
    expect(answer.json.code).toBe(100);
    expect(answer.json.message).toBe(
      `Invoke:Local (Invoke:Local): url host "127.0.0.1" is 127.0.0.1, a non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ${SERVER_PRIVATE_NETWORK_HINT.replace("{entry}", `127.0.0.1:${target.port}`)}`,
    );
    expect(answer.json.message).toContain("server.allowPrivateNetwork");
    expect(target.requests).toEqual([]);
  });

  it("lets it through when the server's config turns the guard off", async () => {
    const target = await standIn((_request, res) => res.end("reached"));
    const server = await startTestServer({ allowPrivateNetwork: true });
    const agentId = await createAgent(server, invokeCanvas(`${target.base}/ping`));
    const answer = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "go" } });
    expect(answer.json.code).toBe(0);
    expect(answer.json.data.data.content).toBe("reached");
    expect(target.requests.map((request) => request.path)).toEqual(["/ping"]);
  });

  it("lets through what the server's egress.allow lists, and nothing else", async () => {
    const target = await standIn((_request, res) => res.end("reached"));
    const other = await standIn((_request, res) => res.end("other"));
    const server = await startTestServer({ egress: { allow: [`127.0.0.1:${target.port}`] } });
    const agentId = await createAgent(server, invokeCanvas(`${target.base}/ping`));
    const answer = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "go" } });
    expect(answer.json.code).toBe(0);
    expect(answer.json.data.data.content).toBe("reached");
    const otherId = await createAgent(server, invokeCanvas(`${other.base}/ping`));
    const refused = await call(server, COMPLETIONS, { body: { agent_id: otherId, query: "go" } });
    expect(refused.json.message).toContain(`add "127.0.0.1:${other.port}" to egress.allow`);
    expect(other.requests).toEqual([]);
  });

  it("is the server's to decide: services.egress that disagrees with it, and a bad entry, are refused", () => {
    const store = new InProcessServerStore();
    expect(() => createServer({ store, egress: { allow: ["127.0.0.1"] }, canvas: { services: { egress: { allow: ["10.0.0.0/8"] } } } })).toThrow(
      "/canvas/services/egress/allow: differs from the server's egress.allow: the server decides it",
    );
    expect(() => createServer({ store, canvas: { services: { egress: { allowPrivateNetwork: true } } } })).toThrow(
      "/canvas/services/egress/allowPrivateNetwork: is true, but the server's own allowPrivateNetwork is false",
    );
    expect(() => createServer({ store, egress: { allow: ["127.0.0.1", "10.0.0.0/99"] } })).toThrow('/egress/allow/1: "10.0.0.0/99": the prefix length 99 is outside 0-32');
    expect(() => createServer({ store, egress: { allow: ["127.0.0.1"] }, canvas: { services: { egress: { allow: ["127.0.0.1"] } } } })).not.toThrow();
  });

  it("is the server's to decide: services.http.allowPrivateNetwork that disagrees with it is refused", () => {
    const store = new InProcessServerStore();
    const make = () => createServer({ store, canvas: { services: { http: { allowPrivateNetwork: true } } } });
    expect(make).toThrow(ServerOptionsError);
    expect(make).toThrow("/canvas/services/http/allowPrivateNetwork: is true, but the server's own allowPrivateNetwork is false");
    expect(() => createServer({ store, allowPrivateNetwork: true, canvas: { services: { http: { allowPrivateNetwork: true } } } })).not.toThrow();
  });

  it("refuses a tenant's ExeSQL to the server's own PostgreSQL (127.0.0.1:5432) by default, and runs it once the operator lists it", async () => {
    const server = await startTestServer();
    const agentId = await createAgent(server, exeSqlCanvas("SELECT current_user"));
    const answer = await call(server, COMPLETIONS, { body: { agent_id: agentId, query: "go" } });
    expect(answer.json.code).toBe(100);
    expect(answer.json.message).toBe(
      `ExeSQL:Db (ExeSQL:Db): ExeSQL host "127.0.0.1" is 127.0.0.1, a non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ${SERVER_PRIVATE_NETWORK_HINT.replace("{entry}", "127.0.0.1:5432")}`,
    );
    const listed = await startTestServer({ egress: { allow: ["127.0.0.1:5432"] } });
    const listedAgent = await createAgent(listed, exeSqlCanvas("SELECT current_user AS who"));
    const ran = await call(listed, COMPLETIONS, { body: { agent_id: listedAgent, query: "go" } });
    expect(ran.json.code).toBe(0);
    expect(ran.json.data.data.content).toContain("postgres");
  });

  it("refuses a tenant's Email to an SMTP listener on 127.0.0.1 by default (no connection made), and sends through the operator's relay once listed", async () => {
    let connections = 0;
    const subjects: string[] = [];
    const relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let text = "";
        stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
        stream.on("end", () => {
          subjects.push(/^Subject: (.*)$/m.exec(text)?.[1]?.trim() ?? "");
          callback();
        });
      },
      logger: false,
    });
    relay.server.on("connection", () => connections++);
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    const port = (relay.server.address() as AddressInfo).port;
    try {
      // The attack: the tenant names the listener itself.
      const server = await startTestServer();
      const tenantChosen = await createAgent(server, emailCanvas({ smtp_server: "127.0.0.1", smtp_port: port, email: "bot@example.com", password: "x" }));
      const refused = await call(server, COMPLETIONS, { body: { agent_id: tenantChosen, query: "go" } });
      expect(refused.json.message).toContain(`Email smtp_server "127.0.0.1" is 127.0.0.1, a non-public address (loopback)`);
      expect(refused.json.message).toContain(SERVER_PRIVATE_NETWORK_HINT.replace("{entry}", `127.0.0.1:${port}`));
      expect(connections).toBe(0);
      // The operator's own relay (the config's smtp, plain SMTP on loopback), listed.
      const smtp = { host: "127.0.0.1", port, tls: "none" as const, from: "bot@example.com" };
      const listed = await startTestServer({ egress: { allow: [`127.0.0.1:${port}`] }, canvas: { services: { tools: { knowledgeBases: {}, endpoints: {}, env: {}, smtp } } } });
      const viaRelay = await createAgent(listed, emailCanvas({}));
      const sent = await call(listed, COMPLETIONS, { body: { agent_id: viaRelay, query: "go" } });
      expect(sent.json.code).toBe(0);
      expect(sent.json.data.data.content).toBe("sent: true");
      expect(subjects).toEqual(["listed relay"]);
    } finally {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});
