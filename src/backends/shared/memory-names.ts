/**
 * Tenants and memory ids as parts of file names and Redis keys. Both may hold any printable
 * character (":", "/", "..", "%", unicode, upper and lower case), so each is encoded such that two
 * different values never give the same name, and no name is special to the file system.
 */
import { createHash } from "node:crypto";

/** File names longer than this are given by digest (NAME_MAX is 255 bytes on most file systems). */
const MAX_READABLE_NAME = 200;
const PLAIN = /^[a-z0-9._-]$/;

/**
 * A value as one file or folder name: `_` and the value with everything but lowercase letters,
 * digits, ".", "-" and "_" percent-encoded (as UTF-8), so names differ even on file systems that
 * ignore case (macOS, Windows) and none is "." or ".."; a value whose name would be too long is
 * `~` and its SHA-256 instead. The first character tells the two forms apart.
 */
export function fileNameOf(value: string): string {
  let name = "_";
  for (const char of value) {
    name += PLAIN.test(char) ? char : [...Buffer.from(char, "utf8")].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
  return name.length <= MAX_READABLE_NAME ? name : `~${createHash("sha256").update(value, "utf8").digest("hex")}`;
}

/** A value as one part of a Redis key: percent-encoded, so it holds no ":" (nor "{", "}", "*"). */
export function keyPartOf(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The file name releases before tenant scopes gave a memory: its id percent-encoded
 * (encodeURIComponent), "." and ".." with their dots encoded, and ".jsonl".
 */
export function legacyFileNameOf(id: string): string {
  return `${encodeURIComponent(id).replace(/^\.+$/, (dots) => dots.replace(/\./g, "%2E"))}.jsonl`;
}

/** The memory id of a legacy memory file's name, or undefined when the name is not one. */
export function legacyIdOf(fileName: string): string | undefined {
  // Temp files end in ".tmp", lock files in ".lock": neither is a memory.
  if (!fileName.endsWith(".jsonl")) return undefined;
  try {
    const id = decodeURIComponent(fileName.slice(0, -".jsonl".length));
    return legacyFileNameOf(id) === fileName ? id : undefined;
  } catch {
    return undefined;
  }
}
