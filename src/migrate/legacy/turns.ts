/**
 * Conversation turns. In v0.19 an Answer was where a turn's reply was shown and the turn ended;
 * the next user message continued from the Answer's downstream. In the current format every
 * turn is a run that starts at Begin with the message in `sys.query`, and the reply is a Message.
 *
 * So each Answer becomes a Message that shows what reached it (the output of the component
 * before it), and ends the turn. Its downstream is where the next turn starts:
 * - an Answer right after Begin ("wait for the user"): the run now starts there directly;
 * - an Answer in the middle of the flow: the next turn must start after it, not at the
 *   beginning. A conversation variable `env.resume_at` remembers the Answer (a VariableAssigner
 *   after its Message) and a Switch after Begin continues from there; Answers that lead back
 *   to the start clear it.
 *
 * v0.19 Messages and Begin showed their text themselves through the Answer; now a Message shows
 * its text when it runs, so an Answer reached only from them needs no Message of its own.
 */
import { unique } from "../dsl-access.js";
import type { LegacyModel } from "./model.js";
import type { WorkEntry, Workspace } from "./workspace.js";

const RESUME_VARIABLE = "resume_at";
const RESUME_SELECTOR = `env.${RESUME_VARIABLE}`;

/** Components whose output is shown by themselves or is not a reply (routing decisions). */
const NO_REPLY = new Set(["Begin", "Answer", "Message"]);
const ROUTERS = new Set(["Switch", "Concentrator", "Categorize", "Relevant"]);

interface TurnsResult {
  /** The conversation variable to declare, when the resume Switch was added. */
  resumeVariable?: string;
}

/** The references an Answer showed: the outputs of what ran before it, looking past routers. */
function replySources(model: LegacyModel, answer: string): string[] {
  const seen = new Set<string>([answer]);
  const of = (pred: string): string[] => {
    if (seen.has(pred)) return [];
    seen.add(pred);
    const name = model.name(pred);
    if (NO_REPLY.has(name)) return [];
    if (ROUTERS.has(name)) return model.predecessors(pred).flatMap(of);
    return [model.outputRef(pred)];
  };
  return unique(model.predecessors(answer).flatMap(of));
}

/** post_answers: a random one was appended to the reply. */
function replyTexts(sources: readonly string[], postAnswers: unknown): string[] {
  const reply = sources.map((s) => `{${s}}`).join("");
  const extras = Array.isArray(postAnswers) ? postAnswers.filter((p): p is string => typeof p === "string" && p !== "") : [];
  return extras.length > 0 ? extras.map((extra) => `${reply}${extra}`) : [reply];
}

export function convertTurns(model: LegacyModel, ws: Workspace): TurnsResult {
  const answers = [...model.entries.keys()].filter((id) => model.name(id) === "Answer");
  const begin = model.has("begin") ? "begin" : undefined;
  const entryAnswers = new Set(begin ? model.successors(begin).filter((id) => model.name(id) === "Answer") : []);
  // Where a turn that starts at Begin goes: past the Answers right after it.
  const startTargets = begin
    ? unique(model.successors(begin).flatMap((id) => (entryAnswers.has(id) ? model.successors(id) : [id])))
    : [];
  // An Answer that continues where a new turn starts anyway needs nothing remembered.
  const sameAsStart = (answer: string) => sameSet(model.successors(answer), startTargets);
  const midAnswers = answers.filter((a) => !entryAnswers.has(a) && model.successors(a).length > 0 && !sameAsStart(a));
  const resume = midAnswers.length > 0;

  for (const answer of answers) {
    const sources = replySources(model, answer);
    const legacy = model.params(answer);
    const isMid = midAnswers.includes(answer);
    let continuation: string[] = [];
    if (resume) {
      const assigner = ws.newId("VariableAssigner", `${answer}_resume`);
      ws.insertAfter(answer, assigner, {
        name: "VariableAssigner",
        params: { variables: [{ variable: RESUME_SELECTOR, operator: "set", parameter: isMid ? answer : "" }] },
        downstream: [],
        displayName: isMid ? `Resume after ${displayName(ws, answer)}` : "Resume from the start",
      });
      ws.note(
        assigner,
        undefined,
        isMid ? `added: sets ${RESUME_SELECTOR} to "${answer}" after its reply` : `added: clears ${RESUME_SELECTOR} after the reply of ${answer}`,
        isMid ? `the next turn continues after ${answer}, as in v0.19` : `the next turn starts from the beginning, as after ${answer} in v0.19`,
      );
      continuation = [assigner];
    }

    // v0.19 Messages (and Begin) showed their text through this Answer; now they show it themselves.
    for (const pred of ws.predecessors(answer)) {
      const entry = ws.get(pred)!;
      if (entry.legacyName === "Message" || pred === begin) entry.downstream = unique(entry.downstream.flatMap((d) => (d === answer ? continuation : [d])));
    }

    const current = ws.get(answer)!;
    if (sources.length > 0) {
      ws.set(answer, {
        ...current,
        name: "Message",
        params: { content: replyTexts(sources, legacy.post_answers) },
        downstream: continuation,
      });
      ws.note(
        answer,
        "Answer",
        `Answer → Message showing ${sources.map((s) => `{${s}}`).join(" or ")}; the turn ends there${isMid ? " and the next one continues after it" : ""}`,
        "the current format shows a reply with a Message; the Answer was where v0.19 showed the reply and waited for the next user message",
      );
    } else {
      ws.redirect(answer, continuation);
      ws.remove(answer);
      ws.note(
        answer,
        "Answer",
        isMid ? `removed; the turn ends after the Messages before it and the next one continues after it` : "removed; the turn ends after the Messages before it",
        "every component before this Answer shows its own text now, so nothing is left for the Answer to show",
      );
    }
  }

  if (!begin || !ws.get(begin)) return {};
  const beginEntry = ws.get(begin)!;
  if (entryAnswers.size > 0 && !resume) {
    ws.note(begin, "Begin", `starts the flow at ${startTargets.join(", ") || "nothing"} (after ${[...entryAnswers].join(", ")})`, "a run starts with the user's message, which v0.19 waited for at the Answer after Begin");
  }
  if (!resume) {
    beginEntry.downstream = startTargets;
    return {};
  }

  const router = ws.newId("Switch", "ResumeConversation");
  const routerEntry: WorkEntry = {
    name: "Switch",
    params: {
      conditions: midAnswers.map((answer) => ({
        logical_operator: "and",
        items: [{ cpn_id: RESUME_SELECTOR, operator: "=", value: answer }],
        to: model.successors(answer),
      })),
      end_cpn_ids: startTargets,
    },
    downstream: unique([...midAnswers.flatMap((a) => model.successors(a)), ...startTargets]),
    displayName: "Resume the conversation",
  };
  ws.insertAfter(begin, router, routerEntry);
  beginEntry.downstream = [router];
  ws.note(
    router,
    undefined,
    `added after Begin: continues after ${midAnswers.join(", ")} when ${RESUME_SELECTOR} names it, else at ${startTargets.join(", ")}`,
    "v0.19 continued the next turn after the Answer that ended the previous one; a run now always starts at Begin",
  );
  return { resumeVariable: RESUME_VARIABLE };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function displayName(ws: Workspace, id: string): string {
  return ws.get(id)?.displayName ?? id;
}
