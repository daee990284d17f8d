/**
 * System prompts for the v0.19 components whose instructions were built into their code
 * (RewriteQuestion, KeywordExtract, Relevant). In the current format an Agent carries its
 * instructions in `sys_prompt`, so the migration writes them out. Our own wording of what
 * each component asked the model to do.
 */

export function rewritePrompt(language: string): string {
  return [
    "Rewrite the user's latest question so that it can be understood without the conversation:",
    "resolve pronouns and references to earlier turns, keep every detail that matters, and do not answer it.",
    language ? `Write the question in ${language}.` : "Write the question in the language the user used.",
    "Reply with the rewritten question only.",
  ].join("\n");
}

export function keywordPrompt(topN: number): string {
  return [
    "You analyze questions.",
    `Summarize the user's question and give its ${topN} most important keyword${topN === 1 ? "" : "s"} or key phrase${topN === 1 ? "" : "s"},`,
    "separated by commas, in the language of the question.",
    "Reply with the keywords only.",
  ].join("\n");
}

export const RELEVANCE_PROMPT = [
  "You grade whether retrieved documents are relevant to a user's question.",
  "It does not need to be a strict test: the goal is to filter out wrong retrievals.",
  "If the documents contain keywords or meaning related to the question, they are relevant.",
  "Reply with one word: yes or no.",
].join("\n");
