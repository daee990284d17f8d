/**
 * Loading a package when a feature first needs it, so that importing canvasflow (or running a
 * canvas from a file) never pays for a database driver, a document library or a browser it does
 * not use. Packages that only some users need are `optionalDependencies`: an install with
 * `--omit=optional` lacks them, and the feature then fails with `MissingPackageError`, naming the
 * package, the feature and the command that installs it, not with a stack trace from `import`.
 */
import { createRequire } from "node:module";

export class MissingPackageError extends Error {
  readonly code = "missing_package";
  /** Every package the feature needs that is missing (packageName is the first). */
  readonly packageNames: readonly string[];
  constructor(
    readonly packageName: string,
    readonly feature: string,
    others: readonly string[] = [],
  ) {
    const names = [packageName, ...others];
    super(
      names.length === 1
        ? `${feature} needs the package ${packageName}, which is not installed (it is optional): install it with \`npm install ${packageName}\``
        : `${feature} needs the packages ${names.join(", ")}, which are not installed (they are optional): install them with \`npm install ${names.join(" ")}\``,
    );
    this.name = "MissingPackageError";
    this.packageNames = names;
  }
}

const require = createRequire(import.meta.url);

/** The package's root name: "pg", "@scope/name" (of "mysql2/promise", "@scope/name/sub"). */
function rootName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Whether the error says the package itself cannot be found (not a file missing inside an installed one). */
function isMissing(error: unknown, specifier: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return false;
  // CommonJS: "Cannot find module 'pg'"; ESM: "Cannot find package 'pg' imported from …".
  const message = String((error as Error).message);
  return message.includes(`'${specifier}'`) || message.includes(`'${rootName(specifier)}'`);
}

/** A CommonJS package (pg, ioredis, exceljs…), loaded synchronously on first call. */
export function requirePackage<T>(specifier: string, feature: string): T {
  return requirePackages<[T]>([specifier], feature)[0];
}

/**
 * Several CommonJS packages a feature needs together (the server's Fastify and its plugins),
 * loaded synchronously on first call; when some are missing, one error names them all.
 */
export function requirePackages<T extends unknown[]>(specifiers: { [K in keyof T]: string }, feature: string): T {
  const loaded: unknown[] = [];
  const missing: string[] = [];
  for (const specifier of specifiers) {
    try {
      loaded.push(require(specifier));
    } catch (error) {
      if (!isMissing(error, specifier)) throw error;
      missing.push(rootName(specifier));
    }
  }
  if (missing.length > 0) throw new MissingPackageError(missing[0], feature, missing.slice(1));
  return loaded as T;
}

/**
 * A CommonJS package loaded on the first call of the returned function, then kept: for a package
 * that a synchronous code path needs only sometimes (a template engine, an HTML parser).
 */
export function lazyPackage<T>(specifier: string, feature: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requirePackage<T>(specifier, feature));
}

/** Any package (ESM or CommonJS), imported on first call. */
export async function importPackage<T>(specifier: string, feature: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if (isMissing(error, specifier)) throw new MissingPackageError(rootName(specifier), feature);
    throw error;
  }
}

/**
 * A module of ours that imports optional packages statically (the MCP session, the PDF and DOCX
 * writers), imported on first call: one of the packages missing is a MissingPackageError.
 */
export async function importNeeding<T>(packages: readonly string[], feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = packages.find((name) => isMissing(error, name));
    if (missing !== undefined) throw new MissingPackageError(rootName(missing), feature);
    throw error;
  }
}
