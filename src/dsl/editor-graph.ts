/**
 * The vocabulary of RAGFlow's canvas editor graph (`graph.nodes`/`graph.edges`): node types by
 * component_name (NodeMap in RAGFlow's front-end) and handle ids (NodeHandleId). Whatever writes
 * an editor graph (migrate, canvasflow/graph's builder) or reads one names them from here.
 */

/** Editor node types by component_name; every other component is a ragNode. */
const NODE_TYPES: Readonly<Record<string, string>> = {
  Begin: "beginNode",
  Categorize: "categorizeNode",
  Retrieval: "retrievalNode",
  Message: "messageNode",
  Switch: "switchNode",
  Agent: "agentNode",
  Iteration: "iterationNode",
  IterationItem: "iterationStartNode",
  Loop: "loopNode",
  LoopItem: "loopStartNode",
  ExitLoop: "exitLoopNode",
  DataOperations: "dataOperationsNode",
  ListOperations: "listOperationsNode",
  VariableAssigner: "variableAssignerNode",
  VariableAggregator: "variableAggregatorNode",
};

/** The editor node type of a component_name. */
export function editorNodeType(componentName: string): string {
  return Object.hasOwn(NODE_TYPES, componentName) ? NODE_TYPES[componentName] : "ragNode";
}

/** Editor handle ids (NodeHandleId in RAGFlow's front-end). */
export const HANDLE = {
  start: "start",
  end: "end",
  tool: "tool",
  agentTop: "agentTop",
  agentBottom: "agentBottom",
  agentException: "agentException",
  switchElse: "end_cpn_ids",
} as const;

/** The source handle of a Switch's n-th case (from 0), whose edges give that case's targets. */
export function switchCaseHandle(index: number): string {
  return `Case ${index + 1}`;
}

/** The id the editor gives an edge. */
export function editorEdgeId(source: string, sourceHandle: string, target: string, targetHandle: string = HANDLE.end): string {
  return `xy-edge__${source}${sourceHandle}-${target}${targetHandle}`;
}
