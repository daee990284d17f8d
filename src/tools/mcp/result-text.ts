/**
 * What a model reads from an MCP tool result (CallToolResult): the text parts in order, other
 * parts described in a line (an image's type and size, a resource's URI), the structured content
 * as JSON when there is nothing else. A result flagged `isError` is the tool's failure.
 */
import { isPlainObject } from "../../util/values.js";

/** Bytes of base64 data, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function partText(part: unknown): string {
  if (!isPlainObject(part)) return "";
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? part.text : "";
    case "image":
    case "audio":
      return `[${part.type} ${String(part.mimeType ?? "")}, ${base64Bytes(part.data)} bytes]`;
    case "resource": {
      const resource = isPlainObject(part.resource) ? part.resource : {};
      if (typeof resource.text === "string") return resource.text;
      return `[resource ${String(resource.uri ?? "")}${resource.mimeType ? ` (${String(resource.mimeType)})` : ""}, ${base64Bytes(resource.blob)} bytes]`;
    }
    case "resource_link":
      return `[${String(part.name ?? part.uri ?? "resource")}](${String(part.uri ?? "")})`;
    default:
      return JSON.stringify(part);
  }
}

interface McpResultText {
  text: string;
  isError: boolean;
}

export function mcpResultText(result: unknown): McpResultText {
  if (!isPlainObject(result)) return { text: JSON.stringify(result ?? null), isError: false };
  const parts = Array.isArray(result.content) ? result.content.map(partText).filter((text) => text !== "") : [];
  let text = parts.join("\n");
  if (text === "" && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  // Old servers answer with {toolResult} (protocol 2024-10-07).
  if (text === "" && result.toolResult !== undefined) text = typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult);
  return { text, isError: result.isError === true };
}
