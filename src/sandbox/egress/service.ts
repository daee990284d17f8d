/**
 * `services.http`: how the embedding application configures outgoing HTTP for components
 * (Invoke). Passed as `loadCanvas(dsl, { services: { http: { … } } })`.
 */
import type { HostResolver } from "./guard.js";

export interface HttpServiceOptions {
  /**
   * Allow requests to loopback, private, link-local and other non-public addresses. Default:
   * false, unless the environment variable CANVASFLOW_ALLOW_PRIVATE_NETWORK is 1/true/yes/on.
   * An explicit boolean here wins over the environment.
   */
  allowPrivateNetwork?: boolean;
  /**
   * How to allow such requests, as the refusal says it (default: the CLI's flag, this option and
   * the environment variable). An application with its own switch names it here.
   */
  privateNetworkHint?: string;
  /** Resolves host names (default: the system resolver). Every address it returns is checked and pinned. */
  lookup?: HostResolver;
}

export const PRIVATE_NETWORK_ENV = "CANVASFLOW_ALLOW_PRIVATE_NETWORK";

/** `services.http`, checked: a wrong shape is a configuration error worth naming. */
export function httpServiceOptions(services: Readonly<Record<string, unknown>>): HttpServiceOptions {
  const value = services.http;
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new Error("services.http must be an object like { allowPrivateNetwork: true }");
  const options = value as Record<string, unknown>;
  if (options.allowPrivateNetwork !== undefined && typeof options.allowPrivateNetwork !== "boolean") {
    throw new Error("services.http.allowPrivateNetwork must be true or false");
  }
  if (options.privateNetworkHint !== undefined && typeof options.privateNetworkHint !== "string") {
    throw new Error("services.http.privateNetworkHint must be a string");
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new Error("services.http.lookup must be a function (hostname) => Promise<{address, family}[]>");
  }
  return options as HttpServiceOptions;
}

export function privateNetworkAllowed(options: HttpServiceOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  if (typeof options.allowPrivateNetwork === "boolean") return options.allowPrivateNetwork;
  const flag = env[PRIVATE_NETWORK_ENV]?.trim().toLowerCase();
  return flag === "1" || flag === "true" || flag === "yes" || flag === "on";
}
