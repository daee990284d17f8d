/**
 * RAGFlow's sentence boundary (`rag/flow/chunker/_sentence_boundary.py`, research §5.3): a
 * sentence ends after one of `。!?？；！` or a newline, or after `. `; the boundary stays with the
 * sentence before it. The TokenChunker's media context windows and the TitleChunker's token cap
 * both split by it.
 */
const BOUNDARY = /([。!?？；！\n]|\. )/;

/**
 * `re.split(pattern, text)` paired up: each sentence with the boundary after it. The last piece
 * has none and may be empty (a text ending on a boundary gives a trailing "").
 */
export function sentencePieces(text: string): string[] {
  const parts = text.split(BOUNDARY);
  const sentences: string[] = [];
  for (let i = 0; i < parts.length; i += 2) sentences.push(parts[i] + (parts[i + 1] ?? ""));
  return sentences;
}

/** The sentences of a text, empty pieces left out (the TitleChunker's `_split_text_by_sentences`). */
export function sentences(text: string): string[] {
  return text === "" ? [] : sentencePieces(text).filter((piece) => piece !== "");
}
