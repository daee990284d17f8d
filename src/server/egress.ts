/**
 * The egress guard as the server decides it: its own `allowPrivateNetwork` setting and the config
 * file's `egress.allow`, whatever the environment (CANVASFLOW_ALLOW_PRIVATE_NETWORK is the CLI's)
 * and whatever the embedding code put in the services. Services that say something else are
 * refused, so a mistake shows instead of being overridden quietly; nothing a canvas holds can
 * widen them. The refusal a canvas gets says how the operator allows an address.
 */
import { parseAllowEntry } from "../sandbox/egress/allow-list.js";
import type { EgressServiceOptions, HttpServiceOptions } from "../sandbox/egress/service.js";
import type { EgressConfig } from "../config/types.js";
import type { SchemaIssue } from "../util/json-schema.js";
import { jsonPointer } from "../util/values.js";
import { ServerOptionsError } from "./settings.js";

/** What a refused connection says about allowing it, in the server; `{entry}` is the allow-list entry that would. */
export const SERVER_PRIVATE_NETWORK_HINT =
  'the server allows it only when its config says so: add "{entry}" to egress.allow (or set server.allowPrivateNetwork to true to allow every address) in the file given to canvasflow serve --config (library: createServer\'s egress.allow and allowPrivateNetwork)';

type Services = Readonly<Record<string, unknown>>;

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((entry, i) => entry === right[i]);
}

/**
 * `services` with `egress` (and the older `http`) set to the server's policy. `where` is the
 * pointer of the services in the options, for errors ("/canvas/services").
 */
export function withServerEgress(services: Services, allowPrivateNetwork: boolean, egress: EgressConfig | undefined, where: string): Services {
  const http = (services.http ?? {}) as HttpServiceOptions;
  const given = (services.egress ?? {}) as EgressServiceOptions;
  const issues: SchemaIssue[] = [];
  (egress?.allow ?? []).forEach((entry, i) => {
    try {
      parseAllowEntry(entry);
    } catch (error) {
      issues.push({ pointer: jsonPointer("egress", "allow", i), message: `${JSON.stringify(entry)}: ${(error as Error).message}` });
    }
  });
  for (const [key, value] of [["http", http.allowPrivateNetwork], ["egress", given.allowPrivateNetwork]] as const) {
    if (value !== undefined && value !== allowPrivateNetwork) {
      issues.push({
        pointer: `${where}/${key}/allowPrivateNetwork`,
        message: `is ${value}, but the server's own allowPrivateNetwork is ${allowPrivateNetwork}: the server decides it; pass allowPrivateNetwork to createServer instead`,
      });
    }
  }
  if (given.allow !== undefined && !sameList(given.allow, egress?.allow)) {
    issues.push({ pointer: `${where}/egress/allow`, message: "differs from the server's egress.allow: the server decides it; pass egress: { allow } to createServer instead" });
  }
  if (issues.length > 0) throw new ServerOptionsError(issues);
  const lookup = given.lookup ?? http.lookup;
  return {
    ...services,
    http: { ...http, allowPrivateNetwork, privateNetworkHint: SERVER_PRIVATE_NETWORK_HINT },
    egress: { allow: [...(egress?.allow ?? [])], allowPrivateNetwork, hint: SERVER_PRIVATE_NETWORK_HINT, ...(lookup ? { lookup } : {}) },
  };
}
