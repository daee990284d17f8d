/**
 * `--agents DIR`: every DSL file (`*.json`, or a Dify app's `*.yml`/`*.yaml`) of a folder served as a read-only agent to every
 * tenant, its id taken from the file name (`support.json` is the agent `support`). Template
 * envelopes are unwrapped (their title and description kept); legacy RAGFlow canvases are
 * migrated in memory (the file is untouched), with a warning. A file that is not a valid agent
 * canvas, or that uses what the server-wide component policy denies, stops the server from
 * starting, naming the file and each problem (a tenant's own rules are applied to its turns).
 */
import { readdir, stat } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { migrateDsl, needsMigration } from "../migrate/runner.js";
import { readSource, validateDsl } from "../api.js";
import { MigrationError } from "../migrate/types.js";
import type { CanvasDsl } from "../dsl/types.js";
import type { ComponentRegistry } from "../components/registry.js";
import { isDifyDocument } from "../dify/document.js";
import { compileCanvasGraph } from "../engine/canvas.js";
import { ComponentPolicy } from "../policy/policy.js";

/** An agent of the folder (the same for every tenant). */
export interface FolderAgent {
  id: string;
  title: string;
  description: string;
  dsl: CanvasDsl;
  file: string;
  /** The file's modification time, epoch ms (its create_time and update_time). */
  mtime: number;
}

/** The folder could not be served: the message names the folder or file and what is wrong. */
export class AgentFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentFolderError";
  }
}

interface LoadedAgentFolder {
  agents: FolderAgent[];
  /** One line per legacy file migrated in memory. */
  warnings: string[];
}

export async function loadAgentFolder(dir: string, registry: ComponentRegistry, policy: ComponentPolicy = ComponentPolicy.OPEN): Promise<LoadedAgentFolder> {
  let names: string[];
  try {
    // JSON canvases, and Dify apps as they are exported (YAML).
    names = (await readdir(dir)).filter((name) => /\.(json|ya?ml)$/.test(name)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such folder" : code === "ENOTDIR" ? "is not a folder" : (error as Error).message;
    throw new AgentFolderError(`--agents ${dir}: ${reason}`);
  }
  const agents: FolderAgent[] = [];
  const warnings: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const info = await stat(file);
    if (!info.isFile()) continue;
    agents.push(await loadAgentFile(file, info.mtimeMs, registry, policy, warnings));
  }
  return { agents, warnings };
}

async function loadAgentFile(file: string, mtime: number, registry: ComponentRegistry, policy: ComponentPolicy, warnings: string[]): Promise<FolderAgent> {
  let source;
  try {
    source = await readSource(file);
  } catch (error) {
    throw new AgentFolderError(`--agents: ${(error as Error).message}`);
  }
  let dsl: object = source.dsl;
  // A Dify graph document (`kind: graph`) has RAGFlow's legacy `graph` key too: it is not migrated.
  if (!isDifyDocument(dsl as Record<string, unknown>) && needsMigration(dsl)) {
    try {
      const result = migrateDsl(dsl);
      dsl = result.dsl;
      const unsupported = result.unsupported.length > 0 ? `; ${result.unsupported.length} unsupported component(s) left` : "";
      warnings.push(`warning: ${file}: legacy canvas migrated in memory (${result.applied.join(", ")}${unsupported}); convert the file with \`canvasflow migrate ${file} -o NEW.json\``);
    } catch (error) {
      if (!(error instanceof MigrationError)) throw error;
      // The validation below then reports the DSL as the old format it is.
    }
  }
  const report = validateDsl(dsl, { registry, file });
  const errors = report.issues.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    const lines = errors.map((issue) => `  ${issue.pointer}: ${issue.componentId ? `${issue.componentId}: ` : ""}${issue.message}`);
    throw new AgentFolderError(`--agents: ${file} is not a valid agent canvas:\n${lines.join("\n")}`);
  }
  if (policy.restrictsAnything) {
    const denials = policy.denials(compileCanvasGraph(dsl as CanvasDsl, registry));
    if (denials.length > 0) throw new AgentFolderError(`--agents: ${file} uses what the server's component policy denies:\n${denials.map((d) => `  ${d.reason}`).join("\n")}`);
  }
  const id = basename(file, extname(file));
  return {
    id,
    title: typeof source.envelope?.title === "string" && source.envelope.title !== "" ? source.envelope.title : id,
    description: typeof source.envelope?.description === "string" ? source.envelope.description : "",
    dsl: dsl as CanvasDsl,
    file,
    mtime: Math.floor(mtime),
  };
}
