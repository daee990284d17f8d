/**
 * Random cases run through RAGFlow's Python chunkers (test/fixtures/ragflow-parity/
 * python-differential/README.md): our TokenChunker and TitleChunker must return the same chunks.
 * Params are used as given, unchecked, as RAGFlow's harness set them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { titleChunk, tokenChunk, type TitleChunkerParams, type TokenChunkerParams } from "../../../src/pipelines/chunking/chunkers.js";
import type { Chunk, Payload } from "../../../src/pipelines/payload.js";

const DIR = join(import.meta.dirname, "../../fixtures/ragflow-parity/python-differential");

interface Case {
  component: "TokenChunker" | "TitleChunker";
  param: Record<string, unknown>;
  input: Payload;
  chunks: Chunk[];
}

const load = (file: string) => JSON.parse(readFileSync(join(DIR, file), "utf8")) as Case[];

/** RAGFlow writes img_id: null on a TitleChunker media chunk without one; ours leaves it out (a documented difference). */
function withoutNullImgId(chunks: Chunk[]): Chunk[] {
  return chunks.map(({ img_id, ...rest }) => (img_id === null ? rest : { ...rest, img_id }));
}

describe("TokenChunker against RAGFlow's Python on random cases", () => {
  const cases = load("python-token-chunker.json");
  it("has the cases", () => expect(cases).toHaveLength(80));
  cases.forEach((c, i) => {
    it(`case ${i}`, async () => {
      const chunks = await tokenChunk(c.param as unknown as TokenChunkerParams, c.input, () => {});
      expect(JSON.parse(JSON.stringify(chunks))).toEqual(c.chunks);
    });
  });
});

describe("TitleChunker against RAGFlow's Python on random cases", () => {
  const cases = load("python-title-chunker.json");
  it("has the cases", () => expect(cases).toHaveLength(80));
  cases.forEach((c, i) => {
    it(`case ${i}`, async () => {
      const chunks = await titleChunk(c.param as unknown as TitleChunkerParams, c.input, () => {});
      expect(JSON.parse(JSON.stringify(chunks))).toEqual(withoutNullImgId(c.chunks));
    });
  });
});
