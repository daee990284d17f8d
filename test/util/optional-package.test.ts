/** Loading optional packages on first use (src/util/optional-package.ts). */
import { describe, expect, it } from "vitest";
import { importNeeding, importPackage, MissingPackageError, requirePackage, requirePackages } from "../../src/util/optional-package.js";

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

  it("a feature needing several packages names every missing one in one error", () => {
    const [pg] = requirePackages<[{ Pool: unknown }, unknown]>(["pg", "lodash"], "Two packages");
    expect(typeof pg.Pool).toBe("function");
    expect(() => requirePackages(["no-such-a-cf", "pg", "@no-such-scope/b-cf"], "The HTTP server")).toThrow(
      "The HTTP server needs the packages no-such-a-cf, @no-such-scope/b-cf, which are not installed (they are optional): install them with `npm install no-such-a-cf @no-such-scope/b-cf`",
    );
  });

  it("a module of ours whose static import is missing gives the package's MissingPackageError", async () => {
    const missing = Object.assign(new Error("Cannot find package 'exceljs' imported from /x/workbook.js"), { code: "ERR_MODULE_NOT_FOUND" });
    await expect(importNeeding(["exceljs"], "ExcelProcessor", () => Promise.reject(missing))).rejects.toMatchObject({ name: "MissingPackageError", packageName: "exceljs", feature: "ExcelProcessor" });
    const other = Object.assign(new Error("Cannot find module '/x/workbook.js'"), { code: "ERR_MODULE_NOT_FOUND" });
    await expect(importNeeding(["exceljs"], "ExcelProcessor", () => Promise.reject(other))).rejects.toBe(other);
    expect(await importNeeding(["exceljs"], "ExcelProcessor", async () => 42)).toBe(42);
  });
});
