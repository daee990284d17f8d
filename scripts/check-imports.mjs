#!/usr/bin/env node
/**
 * `npm run check:imports`: no import circle in src/, counted twice with madge over TypeScript's
 * resolution: the runtime imports alone (what Node loads), then with the type-only imports too
 * (`import type`, `export type … from`), so the contracts stay a leaf that nothing circles through.
 * Exits 1 and lists the circles when either count is not zero.
 */
import madge from "madge";

const runs = [
  { label: "runtime imports", skipTypeImports: true },
  { label: "runtime and type-only imports", skipTypeImports: false },
];

let failed = false;
for (const { label, skipTypeImports } of runs) {
  const result = await madge("src", {
    fileExtensions: ["ts"],
    tsConfig: "tsconfig.json",
    detectiveOptions: { ts: { skipTypeImports }, tsx: { skipTypeImports } },
  });
  const circles = result.circular();
  const files = Object.keys(result.obj()).length;
  if (circles.length === 0) {
    console.log(`${label}: ${files} files, no circle`);
    continue;
  }
  failed = true;
  console.error(`${label}: ${circles.length} circle${circles.length === 1 ? "" : "s"} in ${files} files`);
  for (const circle of circles) console.error(`  ${[...circle, circle[0]].join(" > ")}`);
}
process.exit(failed ? 1 : 0);
