/** The components that need an LLM provider. */
import type { ComponentDefinition } from "../types.js";
import { Agent } from "./agent.js";
import { Browser } from "./browser.js";
import { Categorize } from "./categorize.js";
import { LLM } from "./llm.js";

export { Agent, Browser, Categorize, LLM };

export const LLM_COMPONENTS: readonly ComponentDefinition[] = [LLM, Agent, Categorize, Browser];
