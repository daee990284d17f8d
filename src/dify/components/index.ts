/** The Dify node components, one per node type (catalog.ts maps types to them); registerDify adds them. */
import type { ComponentDefinition } from "../../components/types.js";
import { DifyAgent } from "./agent.js";
import { DifyVariableAggregator } from "./aggregator.js";
import { DifyAssigner } from "./assigner.js";
import { DifyParameterExtractor, DifyQuestionClassifier } from "./classify.js";
import { DifyCode } from "./code.js";
import { DifyIteration, DifyIterationStart, DifyLoop, DifyLoopEnd, DifyLoopStart } from "./containers.js";
import { DifyDocumentExtractor, DifyKnowledgeRetrieval, DifyListOperator } from "./data.js";
import { DifyHttpRequest } from "./http.js";
import { DifyIfElse } from "./if-else.js";
import { DifyLLM } from "./llm.js";
import { DifyAnswer, DifyEnd } from "./response.js";
import { DifyStart } from "./start.js";
import { DifyTemplateTransform } from "./template-transform.js";
import { DifyTool } from "./tool.js";
import { DifyUnsupported } from "./unsupported.js";

export const DIFY_COMPONENTS: readonly ComponentDefinition[] = [
  DifyStart,
  DifyEnd,
  DifyAnswer,
  DifyLLM,
  DifyIfElse,
  DifyTemplateTransform,
  DifyCode,
  DifyVariableAggregator,
  DifyAssigner,
  DifyIteration,
  DifyIterationStart,
  DifyLoop,
  DifyLoopStart,
  DifyLoopEnd,
  DifyHttpRequest,
  DifyTool,
  DifyQuestionClassifier,
  DifyParameterExtractor,
  DifyKnowledgeRetrieval,
  DifyListOperator,
  DifyDocumentExtractor,
  DifyAgent,
  DifyUnsupported,
];
