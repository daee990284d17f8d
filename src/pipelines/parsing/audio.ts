/**
 * Audio (research/ragflow-pipelines.md §4.2 "Audio"): the recording is transcribed by the speech
 * model the setup names (`vlm.llm_id`), through the canvas's provider routing (an
 * OpenAI-compatible `/audio/transcriptions`; the mock LLM answers it in tests). The Parser gives
 * the transcript as `text`, as RAGFlow does.
 */
import { DocumentParseError } from "../payload.js";
import { checkAborted, readWhole } from "./binary-input.js";
import type { FormatParser } from "./contract.js";

export const parseAudioWithSpeech: FormatParser = async (request) => {
  const name = request.source.name;
  if (!request.speech) throw new DocumentParseError(name, `${name}: the audio setup names a speech model, and this run has none (give the canvas an LLM provider: --mock-llm, or a model in the config)`);
  const bytes = await readWhole(request);
  checkAborted(request);
  const text = await request.speech.transcribe(bytes, name, request.signal);
  return { output_format: "text", text };
};
