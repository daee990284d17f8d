/**
 * Request validation with the project's own ajv and the schemas in `schemas/server/` (one source
 * for editors, the OpenAPI document and the server). Bodies are checked as sent; query strings
 * are coerced (`page=2` is a number). A failure answers code 101 naming the field.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { FastifySchemaCompiler } from "fastify";
import { loadSchema, packageRoot } from "../dsl/schemas.js";
import { issuesOf } from "../util/json-schema.js";
import { argumentError, type ApiError } from "./envelope.js";
import { newAjv2020, type Ajv2020 } from "../util/ajv.js";

// ajv is CommonJS: under NodeNext its default import is the module object holding the class.
type Ajv = Ajv2020;

/** The server's schemas by file name (`agent-write.schema.json` …). */
export function serverSchema(file: string): { $id: string } & Record<string, unknown> {
  return loadSchema(`server/${file}`) as { $id: string } & Record<string, unknown>;
}

/**
 * The two ajv instances (strict, coercing) with every server schema, made once per process: each
 * server (and each bodyCheck) shares them and the validators they compiled, instead of compiling
 * the same schemas again (a fifth of a second per server).
 */
const ajvs = new Map<boolean, Ajv>();

function serverAjv(coerce: boolean): Ajv {
  let ajv = ajvs.get(coerce);
  if (ajv) return ajv;
  ajv = newAjv2020({ allErrors: true, strict: false, allowUnionTypes: true, coerceTypes: coerce ? true : false });
  for (const file of readdirSync(join(packageRoot(), "schemas", "server")).filter((f) => f.endsWith(".json")).sort()) {
    ajv.addSchema(serverSchema(file));
  }
  ajvs.set(coerce, ajv);
  return ajv;
}

/** Fastify's validator compiler: bodies strictly, query strings and path params with coercion. */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = serverAjv(false);
  const coercing = serverAjv(true);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === "body" ? strict : coercing;
    const id = (schema as { $id?: string }).$id;
    const validate: ValidateFunction = (id !== undefined ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema as object);
    return (data: unknown) => (validate(data) ? { value: data } : { error: Object.assign(new Error("invalid request"), { validation: validate.errors ?? [] }) });
  };
}

/**
 * A body check outside Fastify's routes (a WebSocket frame): the schema file's ajv check, and the
 * code-101 answer naming each field that is wrong, or undefined when the value is fine.
 */
export function bodyCheck(file: string): (value: unknown) => ApiError | undefined {
  const validate = serverAjv(false).getSchema(serverSchema(file).$id)!;
  return (value) => (validate(value) ? undefined : validationError(validate.errors ?? [], "body"));
}

/** The code-101 answer of a request that does not match its schema: each field and what is wrong with it. */
export function validationError(errors: readonly ErrorObject[], part: string | undefined): ApiError {
  const issues = issuesOf(errors);
  const where = part === "querystring" ? "query parameter" : part === "params" ? "path parameter" : "field";
  const described = issues.map((issue) => {
    const problem = asPredicate(issue.message);
    if (issue.pointer === "") {
      const whole = part === "querystring" ? "the query string" : part === "params" ? "the path" : "the request body";
      return `${whole} ${whole === "the request body" ? bodyProblem(problem) : problem}`;
    }
    const field = issue.pointer.slice(1).split("/").map(unescapePointer).join(".");
    return `${where} \`${field}\` ${problem}`;
  });
  const message = described.length > 0 ? described.join("; ") : "the request is invalid";
  return argumentError(message.charAt(0).toUpperCase() + message.slice(1), { issues: issues.map((i) => ({ pointer: i.pointer, message: i.message })) });
}

/** "missing the required property x" reads as "is missing …" after a subject. */
function asPredicate(message: string): string {
  return message.startsWith("missing ") ? `is ${message}` : message;
}

function bodyProblem(message: string): string {
  return message === "must be object" ? "must be a JSON object (send it with Content-Type: application/json)" : message;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
