// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules over the runtime,
// the tests, the benchmarks and the scripts. `npm run lint`; `npm test` runs it.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "test-output/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A leading underscore marks what is unused on purpose: a parameter a callback's position
      // requires, the key a rest destructuring leaves out (`const { a: _a, ...rest } = o`), the
      // value of a loop that only drains an iterator.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Control characters are what the runtime matches on purpose: names and keys refused when
      // they hold any, XML 1.0 and Mermaid escaping, pyyaml's printable check.
      "no-control-regex": "off",
    },
  },
);
