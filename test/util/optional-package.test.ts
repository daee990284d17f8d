/** Loading optional packages on first use (src/util/optional-package.ts). */
import { describe, expect, it } from "vitest";
import { importPackage, MissingPackageError, requirePackage } from "../../src/util/optional-package.js";

describe("optional packages", () => {
  it("load when installed, CommonJS synchronously and anything by import", async () => {
    expect(typeof requirePackage<{ Pool: unknown }>("pg", "PostgreSQL").Pool).toBe("function");
    expect(typeof (await importPackage<{ parse: unknown }>("yaml", "Dify YAML")).parse).toBe("function");
  });

  it("a missing one is a MissingPackageError naming the package, the feature and the install command", async () => {
    const expected = "Excel files needs the package no-such-package-cf, which is not installed (it is optional): install it with `npm install no-such-package-cf`";
    expect(() => requirePackage("no-such-package-cf", "Excel files")).toThrow(expected);
    await expect(importPackage("no-such-package-cf/promise", "Excel files")).rejects.toThrow(expected);
    await expect(importPackage("@no-such-scope/pkg/sub", "MCP tools")).rejects.toMatchObject({ name: "MissingPackageError", code: "missing_package", packageName: "@no-such-scope/pkg", feature: "MCP tools" });
    expect(new MissingPackageError("pg", "PostgreSQL stores")).toBeInstanceOf(Error);
  });

  it("a file missing inside an installed package is not taken for a missing package", () => {
    expect(() => requirePackage("pg/no-such-file-cf", "PostgreSQL")).toThrow(/no-such-file-cf/);
    expect(() => requirePackage("pg/no-such-file-cf", "PostgreSQL")).not.toThrow(MissingPackageError);
  });
});
