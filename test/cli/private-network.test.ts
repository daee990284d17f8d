/**
 * The CLI's private-network switch: the guard is on by default, and `--allow-private-network` or
 * CANVASFLOW_ALLOW_PRIVATE_NETWORK=1 turns it off, as the block message says.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { openRunServices } from "../../src/cli/services.js";
import { egressPolicyOf } from "../../src/sandbox/egress/service.js";
import { cli, liveIO } from "../helpers/cli.js";
import { canvasDsl, finished, messageText, node } from "../helpers/dsl.js";
import { standIn } from "../helpers/http.js";
import { scratchDir } from "../helpers/scratch.js";

const { write } = scratchDir("canvasflow-cli-private-");

function invokeFile(url: string): string {
  return write(
    "invoke.json",
    canvasDsl({
      begin: node("Begin", {}, ["Invoke:Local"]),
      "Invoke:Local": node("Invoke", { url, method: "get", timeout: 5 }, ["Message:Show"]),
      "Message:Show": node("Message", { content: ["{Invoke:Local@result}"] }),
    }),
  );
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("canvasflow run and private networks", () => {
  it("blocks a loopback URL by default, saying how to allow it", async () => {
    vi.stubEnv("CANVASFLOW_ALLOW_PRIVATE_NETWORK", "");
    const server = await standIn((_request, res) => res.end("reached"));
    const r = await cli(["run", invokeFile(`${server.base}/ping`), "-q", "x"]);
    expect(finished(r.events).error).toBe(
      'Invoke:Local (Invoke:Local): url host "127.0.0.1" is 127.0.0.1, a non-public address (loopback): connections to loopback, private, link-local and other non-public addresses are refused unless the operator allows them; ' +
        `to allow it, add "127.0.0.1:${server.port}" to egress.allow in the config file (library: services.egress.allow); ` +
        "to allow every address, run the CLI with --allow-private-network or set the environment variable CANVASFLOW_ALLOW_PRIVATE_NETWORK=1 (library: services.egress.allowPrivateNetwork = true)",
    );
    expect(server.requests).toEqual([]);
  });

  it("lets through what the config's egress.allow lists, and only that", async () => {
    vi.stubEnv("CANVASFLOW_ALLOW_PRIVATE_NETWORK", "");
    const server = await standIn((_request, res) => res.end("reached"));
    const listed = write("listed.json", JSON.stringify({ egress: { allow: [`127.0.0.1:${server.port}`] } }));
    const r = await cli(["run", invokeFile(`${server.base}/ping`), "--config", listed, "-q", "x"]);
    expect(finished(r.events).error).toBeUndefined();
    expect(messageText(r.events)).toBe("reached");
    const otherPort = write("other.json", JSON.stringify({ egress: { allow: [`127.0.0.1:${server.port === 65535 ? 1 : server.port + 1}`, "localhost"] } }));
    const refused = await cli(["run", invokeFile(`${server.base}/ping`), "--config", otherPort, "-q", "x"]);
    expect(finished(refused.events).error).toMatch(/a non-public address \(loopback\)/);
    expect(server.requests.map((request) => request.path)).toEqual(["/ping"]);
  });

  it.each([
    ["the flag", ["--allow-private-network"], ""],
    ["the environment variable", [], "1"],
  ])("lets %s allow it", async (_how, flags, env) => {
    vi.stubEnv("CANVASFLOW_ALLOW_PRIVATE_NETWORK", env);
    const server = await standIn((_request, res) => res.end("reached"));
    const r = await cli(["run", invokeFile(`${server.base}/ping`), ...flags, "-q", "x"]);
    expect(finished(r.events).error).toBeUndefined();
    expect(messageText(r.events)).toBe("reached");
    expect(server.requests.map((request) => request.path)).toEqual(["/ping"]);
  });

  it("run and worker share one way in: the config's egress.allow and the flag become services.egress", async () => {
    const config = write("egress.json", JSON.stringify({ egress: { allow: ["db.internal:5432", "10.0.0.0/8"] } }));
    const opened = await openRunServices({ config }, liveIO().io);
    const flagged = await openRunServices({ config, allowPrivateNetwork: true }, liveIO().io);
    try {
      expect(opened.services.egress).toEqual({ allow: ["db.internal:5432", "10.0.0.0/8"] });
      const policy = egressPolicyOf(opened.services as Record<string, unknown>, {});
      expect(policy.allowPrivateNetwork).toBe(false);
      expect(policy.allow.entries.map((entry) => entry.text)).toEqual(["db.internal:5432", "10.0.0.0/8"]);
      expect(flagged.services.egress).toEqual({ allow: ["db.internal:5432", "10.0.0.0/8"], allowPrivateNetwork: true });
    } finally {
      await opened.close();
      await flagged.close();
    }
  });
});
