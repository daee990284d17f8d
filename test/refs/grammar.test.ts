import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  FORBIDDEN_PATH_KEYS,
  findReferences,
  isSelector,
  parseExpression,
  parseSelector,
  referenceKey,
  scanReferences,
  type Reference,
} from "../../src/refs/grammar.js";
import { compileTemplate } from "../../src/refs/template.js";

const component = (componentId: string, variable: string, path: string[] = [], expr = `${componentId}@${[variable, ...path].join(".")}`): Reference => ({
  kind: "component",
  expr,
  componentId,
  variable,
  path,
});
const global = (key: string): Reference => ({ kind: "global", expr: key, scope: key.startsWith("sys.") ? "sys" : "env", key });

describe("findReferences: the template spelling", () => {
  it("finds a plain component reference", () => {
    expect(findReferences("{cpn@var}")).toEqual([component("cpn", "var")]);
  });

  it("splits the variable into the output key and a dotted path", () => {
    expect(findReferences("{cpn@var.path.0.key}")).toEqual([component("cpn", "var", ["path", "0", "key"])]);
  });

  it("finds sys.* and env.* globals and keeps the whole key", () => {
    expect(findReferences("{sys.query} and {env.name}")).toEqual([global("sys.query"), global("env.name")]);
    expect(findReferences("{env.obj.field}")).toEqual([global("env.obj.field")]);
  });

  it("matches the global scope case-insensitively and canonicalises it to lower case", () => {
    expect(findReferences("{SYS.query}")).toEqual([global("sys.query")]);
    expect(findReferences("{Env.Name}")).toEqual([global("env.Name")]);
  });

  it("tolerates doubled braces, with or without spaces between them", () => {
    expect(findReferences("{{cpn@var}}")).toEqual([component("cpn", "var")]);
    expect(findReferences("{ {cpn@var} }")).toEqual([component("cpn", "var")]);
    expect(findReferences("{{{ {sys.query} }}}")).toEqual([global("sys.query")]);
  });

  it("accepts component ids with '_' and ':'", () => {
    expect(findReferences("{userfillup_abc@line}")).toEqual([component("userfillup_abc", "line")]);
    expect(findReferences("{UserFillUp:CateInput@text}")).toEqual([component("UserFillUp:CateInput", "text")]);
  });

  it("accepts '-' and '.' in the variable but not '-' in a template component id", () => {
    expect(findReferences("{cpn@my-var.sub-key}")).toEqual([component("cpn", "my-var", ["sub-key"])]);
    expect(findReferences("{my-cpn@var}")).toEqual([]);
  });

  it("does not read text without '@' or a global scope as a reference", () => {
    expect(findReferences("{line}")).toEqual([]);
    expect(findReferences("{cpn@}")).toEqual([]);
    expect(findReferences("{@var}")).toEqual([]);
    expect(findReferences("{sys.}")).toEqual([]);
    expect(findReferences('{"key": "value"}')).toEqual([]);
    expect(findReferences("no braces at all: cpn@var sys.query")).toEqual([]);
  });

  it("finds references in order of appearance and keeps duplicates", () => {
    expect(findReferences("{b@y} {a@x} {b@y}").map(referenceKey)).toEqual(["b@y", "a@x", "b@y"]);
  });

  it("finds references across lines", () => {
    expect(findReferences("line one {a@x}\nline two {sys.query}\n").map(referenceKey)).toEqual(["a@x", "sys.query"]);
  });

  it("finds iteration aliases only when aliases are enabled", () => {
    const text = "{item} at {index}: {result} ({{ITEM}})";
    expect(findReferences(text, true)).toEqual([
      { kind: "alias", expr: "item", alias: "item" },
      { kind: "alias", expr: "index", alias: "index" },
      { kind: "alias", expr: "result", alias: "result" },
      { kind: "alias", expr: "item", alias: "item" },
    ]);
    expect(findReferences(text, false)).toEqual([]);
    expect(findReferences(text)).toHaveLength(4); // aliases are on by default
  });

  it("does not treat other words in braces as aliases", () => {
    expect(findReferences("{items} {idx} {results}", true)).toEqual([]);
  });

  it("returns nothing for non-strings", () => {
    expect(findReferences(undefined as unknown as string)).toEqual([]);
    expect(findReferences(42 as unknown as string)).toEqual([]);
  });
});

describe("spaces inside the braces: the same reference (as RAGFlow's Go port reads them)", () => {
  it.each(["{{ sys.query }}", "{ sys.query }", "{{  sys.query}}", "{{sys.query  }}", "{\tsys.query\t}", "{ { sys.query } }", "{{{ sys.query }}}", "{{ SYS.query }}"])(
    "%j is {sys.query}, in a template and as a selector",
    (text) => {
      expect(findReferences(`a ${text} b`)).toEqual([global("sys.query")]);
      expect(parseSelector(text)).toEqual(global("sys.query"));
    },
  );

  it("reads spaced component references and iteration aliases too", () => {
    expect(findReferences("{{ Agent:A@content.0 }} { env.x }")).toEqual([component("Agent:A", "content", ["0"]), global("env.x")]);
    expect(findReferences("{{ item }} at { index }", true)).toEqual([
      { kind: "alias", expr: "item", alias: "item" },
      { kind: "alias", expr: "index", alias: "index" },
    ]);
  });

  it("does not read a reference across a line break (a brace on its own line is code or JSON)", () => {
    expect(findReferences("{\nsys.query\n}")).toEqual([]);
    expect(findReferences("{{\n  env.x }}")).toEqual([]);
  });

  it("does not read spaces inside the expression", () => {
    expect(findReferences("{ sys. query }")).toEqual([]);
    expect(findReferences("{ cpn @var }")).toEqual([]);
  });
});

describe("scanReferences keeps the text around a reference", () => {
  const matchesOf = (text: string) => [...scanReferences(text)].map((m) => m.raw);

  it("consumes only the braces, not the spaces before or after (unlike RAGFlow)", () => {
    expect(matchesOf("Hello {a@b}!")).toEqual(["{a@b}"]);
    expect(matchesOf("Hello {a@b} and {c@d} bye")).toEqual(["{a@b}", "{c@d}"]);
    expect(matchesOf("Hello { a@b } and {{ c@d }} bye")).toEqual(["{ a@b }", "{{ c@d }}"]);
  });

  it("consumes spaces that sit between or inside doubled braces", () => {
    expect(matchesOf("x { {a@b} } y")).toEqual(["{ {a@b} }"]);
    expect(matchesOf("x {{item}} y")).toEqual(["{{item}}"]);
    expect(matchesOf("x { { a@b } } y")).toEqual(["{ { a@b } }"]);
  });

  it("leaves unpaired braces and the spaces next to them as text", () => {
    expect(matchesOf("{ { a@b }")).toEqual(["{ a@b }"]);
    expect(matchesOf("{a@b} }")).toEqual(["{a@b}"]);
  });

  it("does not widen a reference over the one before it", () => {
    expect(matchesOf("{a@b}{c@d}}")).toEqual(["{a@b}", "{c@d}"]);
    expect(matchesOf("{{a@b}{c@d}}")).toEqual(["{a@b}", "{c@d}"]);
  });

  it("stays linear on long runs of braces and spaces", () => {
    const text = `${"{ ".repeat(200_000)}a@b${" }".repeat(200_000)}`;
    const [match] = [...scanReferences(text)];
    expect(match.raw).toBe(text);
    expect([...scanReferences("{".repeat(300_000))]).toEqual([]);
  });
});

describe("parseSelector: the bare spelling", () => {
  it("parses cpn@var, sys.x and env.x", () => {
    expect(parseSelector("cpn@var")).toEqual(component("cpn", "var"));
    expect(parseSelector("sys.query")).toEqual(global("sys.query"));
    expect(parseSelector("env.counter")).toEqual(global("env.counter"));
  });

  it("strips braces and spaces around the expression", () => {
    expect(parseSelector("{cpn@var}")).toEqual(component("cpn", "var"));
    expect(parseSelector("  {{ cpn@var.a.1 }}  ")).toEqual(component("cpn", "var", ["a", "1"]));
    expect(parseSelector(" {sys.query} ")).toEqual(global("sys.query"));
  });

  it("splits on the first '@' only: the rest is the output key", () => {
    expect(parseSelector("cpn@foo@bar")).toEqual(component("cpn", "foo@bar"));
    expect(parseSelector("cpn@foo@bar.x")).toEqual(component("cpn", "foo@bar", ["x"]));
  });

  it("accepts '-' in a selector component id", () => {
    expect(parseSelector("my-cpn@var")).toEqual(component("my-cpn", "var"));
  });

  it("drops empty path segments", () => {
    expect(parseSelector("cpn@var..a.")).toMatchObject({ kind: "component", variable: "var", path: ["a"] });
  });

  it("rejects what is not a reference", () => {
    for (const text of ["", "   ", "{}", "line", "@var", "cpn@", "cpn@.x", "cpn@var with space", "cpn id@var", "sys.", "env.", "c{p}n@var"]) {
      expect(parseSelector(text), JSON.stringify(text)).toBeNull();
    }
    expect(parseSelector(undefined as unknown as string)).toBeNull();
    expect(parseSelector(7 as unknown as string)).toBeNull();
  });

  it("accepts after sys./env. only the characters the template spelling accepts", () => {
    expect(parseSelector("env.obj.field_1")).toEqual(global("env.obj.field_1"));
    for (const text of ["sys.query please", "env.a}b", "env.a{b", "env.list.-1", "sys.a@b c"]) {
      expect(parseSelector(text), text).toBeNull();
    }
  });

  it("does not accept iteration aliases (they are a template spelling only)", () => {
    expect(parseSelector("item")).toBeNull();
    expect(parseSelector("{index}")).toBeNull();
    expect(parseExpression("result")).toEqual({ kind: "alias", expr: "result", alias: "result" });
  });

  it("isSelector agrees with parseSelector", () => {
    expect(isSelector("cpn@var")).toBe(true);
    expect(isSelector("{sys.query}")).toBe(true);
    expect(isSelector("just text")).toBe(false);
    expect(isSelector("item")).toBe(false);
    expect(isSelector(3)).toBe(false);
    expect(isSelector(null)).toBe(false);
  });
});

describe("FORBIDDEN_PATH_KEYS", () => {
  it("holds exactly the keys that reach a prototype", () => {
    expect([...FORBIDDEN_PATH_KEYS].sort()).toEqual(["__proto__", "constructor", "prototype"]);
  });
});

// ---- properties ----

const idChar = fc.constantFrom(..."abcXYZ019_:".split(""));
const varChar = fc.constantFrom(..."abcXYZ019_-".split(""));
const componentId = fc.string({ unit: idChar, minLength: 1, maxLength: 8 });
const segment = fc.string({ unit: varChar, minLength: 1, maxLength: 6 });
const componentExpr = fc
  .tuple(componentId, fc.array(segment, { minLength: 1, maxLength: 4 }))
  .map(([id, segs]) => `${id}@${segs.join(".")}`);
const globalExpr = fc
  .tuple(fc.constantFrom("sys", "env"), fc.array(fc.string({ unit: fc.constantFrom(..."abz09_".split("")), minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }))
  .map(([scope, segs]) => `${scope}.${segs.join(".")}`);
const expression = fc.oneof(componentExpr, globalExpr);
/** Text fragments biased towards braces, '@' and reference-like pieces. */
const fragment = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("{", "}", "{{", "}}", " ", "@", ".", "{ ", " }", "{item}", "{index}", "{line}", "sys.", "env."),
  expression.map((e) => `{${e}}`),
  expression,
);
const messyText = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(""));

describe("grammar properties", () => {
  it("every generated expression parses back to itself, as a selector and in braces", () => {
    fc.assert(
      fc.property(expression, fc.constantFrom("", "{", "{{", " { "), (expr, open) => {
        const close = [...open].reverse().join("").replaceAll("{", "}");
        const ref = parseSelector(`${open}${expr}${close}`);
        expect(ref).not.toBeNull();
        expect(referenceKey(ref!)).toBe(expr);
        expect(findReferences(`x {${expr}} y`)).toEqual([ref]);
      }),
    );
  });

  it("braces in pairs with spaces or tabs anywhere between them make one reference, equal to the selector", () => {
    const blank = fc.string({ unit: fc.constantFrom(" ", "\t"), maxLength: 3 });
    const wrapping = fc.array(fc.tuple(blank, blank), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(expression, wrapping, blank, blank, (expr, pairs, inLeft, inRight) => {
        // Each pair: "{" + blank ... blank + "}"; the innermost blanks sit next to the expression.
        const open = pairs.map(([l]) => `{${l}`).join("") + inLeft;
        const close = inRight + [...pairs].reverse().map(([, r]) => `${r}}`).join("");
        const wrapped = `${open}${expr}${close}`;
        const matches = [...scanReferences(`x ${wrapped} y`)];
        expect(matches.map((m) => m.raw)).toEqual([wrapped]);
        expect(matches[0].ref).toEqual(parseSelector(wrapped));
        expect(referenceKey(matches[0].ref)).toBe(expr);
      }),
    );
  });

  it("a component selector splits into id, output key and path at the first '@' and the dots", () => {
    fc.assert(
      fc.property(componentId, fc.array(segment, { minLength: 1, maxLength: 4 }), (id, segs) => {
        expect(parseSelector(`${id}@${segs.join(".")}`)).toEqual(component(id, segs[0], segs.slice(1)));
      }),
    );
  });

  it("text without '{' has no references", () => {
    fc.assert(
      fc.property(messyText, (text) => {
        const plain = text.replaceAll("{", "");
        expect(findReferences(plain)).toEqual([]);
      }),
    );
  });

  it("findReferences agrees with compileTemplate(...).references, with and without aliases", () => {
    fc.assert(
      fc.property(messyText, fc.boolean(), (text, aliases) => {
        expect(compileTemplate(text, aliases).references).toEqual(findReferences(text, aliases));
      }),
    );
  });

  it("without aliases, the references are those with aliases minus the alias ones", () => {
    fc.assert(
      fc.property(messyText, (text) => {
        const withAliases = findReferences(text, true).filter((r) => r.kind !== "alias");
        expect(findReferences(text, false)).toEqual(withAliases);
      }),
    );
  });

  it("parseSelector never throws and never returns an alias", () => {
    fc.assert(
      fc.property(messyText, (text) => {
        const ref = parseSelector(text);
        expect(ref === null || ref.kind !== "alias").toBe(true);
      }),
    );
  });
});
