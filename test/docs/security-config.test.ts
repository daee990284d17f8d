/**
 * The recommended settings of docs/security.md are a config canvasflow serve accepts: the file
 * loads, and its server section (limits, rate limits, the component policy) resolves.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "../../src/api.js";
import { loadConfigFile } from "../../src/config/load.js";
import { resolveServerSettings } from "../../src/server/settings.js";
import { scratchDir } from "../helpers/scratch.js";
import { splitMarkdown } from "./doc-check.js";

describe("docs/security.md", () => {
  it("recommends a config that canvasflow serve accepts", async () => {
    const blocks = splitMarkdown(readFileSync("docs/security.md", "utf8")).blocks.filter((block) => block.lang === "json");
    expect(blocks.length).toBe(1);
    const file = `${scratchDir("cf-security-doc-").dir}/canvasflow.config.json`;
    writeFileSync(file, blocks[0].lines.join("\n"));
    const { config } = await loadConfigFile(file);
    const settings = resolveServerSettings(config.server ?? {}, { registry: defaultRegistry, mcpServers: [] });
    expect(settings.allowPrivateNetwork).toBe(false);
    expect(config.codeExec).toMatchObject({ timeoutMs: 10000 });
  });
});
