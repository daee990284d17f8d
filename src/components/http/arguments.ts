/**
 * How Invoke's arguments travel: GET query parameters, a JSON body, or a urlencoded form body
 * (what Python requests sends for `params=` / `json=` / `data=`).
 */

/** One query/form value as text: objects as JSON. */
function fieldText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

/**
 * Append arguments as `key=value` pairs. Null values are left out and lists repeat the key,
 * as requests does.
 */
function appendFields(target: URLSearchParams, args: Readonly<Record<string, unknown>>): URLSearchParams {
  for (const [key, value] of Object.entries(args)) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) if (item !== null && item !== undefined) target.append(key, fieldText(item));
  }
  return target;
}

/** The URL with the arguments added to any query it already has. */
export function withQuery(url: URL, args: Readonly<Record<string, unknown>>): URL {
  const out = new URL(url.href);
  appendFields(out.searchParams, args);
  return out;
}

export function formBody(args: Readonly<Record<string, unknown>>): string {
  return appendFields(new URLSearchParams(), args).toString();
}

/**
 * A JSON-mode argument: text that parses as JSON is sent as that JSON value, so an upstream
 * `{"a": 1}` string arrives as an object (RAGFlow's _coerce_json_arg_if_possible).
 */
export function jsonArgument(key: string, value: unknown): unknown {
  let out = value;
  if (typeof value === "string") {
    try {
      out = JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (typeof out === "number" && !Number.isFinite(out)) throw new Error(`variables: argument "${key}" is ${out}, which JSON cannot carry`);
  try {
    JSON.stringify(out);
  } catch (error) {
    throw new Error(`variables: argument "${key}" cannot be sent as JSON: ${(error as Error).message}`);
  }
  return out;
}

export function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === wanted);
}
