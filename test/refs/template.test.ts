import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findReferences, referenceKey, type Reference } from "../../src/refs/grammar.js";
import { compileTemplate, renderTemplate, stringifyValue, type TemplateSegment } from "../../src/refs/template.js";

/** Render with values looked up by reference key; an unknown key is a test failure. */
function render(text: string, values: Record<string, unknown>, withAliases = true): string {
  return renderTemplate(compileTemplate(text, withAliases), (ref) => {
    const key = referenceKey(ref);
    if (!Object.hasOwn(values, key)) throw new Error(`unexpected reference ${key}`);
    return values[key];
  });
}

const noResolve = (ref: Reference): never => {
  throw new Error(`resolved ${ref.expr} in a static template`);
};

describe("compileTemplate", () => {
  it("splits text into literal segments and references, keeping the raw match", () => {
    const t = compileTemplate("Hello {a@b}, it is {{sys.date}}!");
    expect(t.isStatic).toBe(false);
    expect(t.segments.map((s) => (typeof s === "string" ? s : s.raw))).toEqual(["Hello ", "{a@b}", ", it is ", "{{sys.date}}", "!"]);
    expect(t.references.map(referenceKey)).toEqual(["a@b", "sys.date"]);
  });

  it("marks text without references as static", () => {
    for (const text of ["", "plain", "{line}", "{ not a ref }", "{{}}", '{"a": 1}']) {
      const t = compileTemplate(text);
      expect(t.isStatic, text).toBe(true);
      expect(t.references).toEqual([]);
      expect(t.segments.join("")).toBe(text);
    }
    expect(compileTemplate("").segments).toEqual([]);
  });

  it("treats aliases as references only when aliases are enabled", () => {
    expect(compileTemplate("#{index}: {item}", true).references.map((r) => r.kind)).toEqual(["alias", "alias"]);
    const off = compileTemplate("#{index}: {item}", false);
    expect(off.isStatic).toBe(true);
    expect(off.segments).toEqual(["#{index}: {item}"]);
  });

  it("returns the cached compilation for the same source and alias mode", () => {
    expect(compileTemplate("x {a@b}")).toBe(compileTemplate("x {a@b}"));
    expect(compileTemplate("x {item}", true)).not.toBe(compileTemplate("x {item}", false));
  });

  it("still compiles correctly after the cache was cleared by many distinct templates", () => {
    for (let i = 0; i < 5000; i++) compileTemplate(`t${i} {c@v${i}}`);
    expect(compileTemplate("t1 {c@v1}").references.map(referenceKey)).toEqual(["c@v1"]);
  });
});

describe("renderTemplate", () => {
  it("keeps the spaces around a reference (RAGFlow swallows them)", () => {
    expect(render("Hello {a@b}!", { "a@b": "Ada" })).toBe("Hello Ada!");
    expect(render("Hello {a@b} and {c@d} bye", { "a@b": 1, "c@d": 2 })).toBe("Hello 1 and 2 bye");
  });

  it("replaces doubled braces, with their inner spaces, as one reference", () => {
    expect(render("[{{a@b}}]", { "a@b": "x" })).toBe("[x]");
    expect(render("[{ {a@b} }]", { "a@b": "x" })).toBe("[x]");
  });

  it("renders null and undefined as empty text, and objects as JSON", () => {
    expect(render("<{a@n}|{a@u}>", { "a@n": null, "a@u": undefined })).toBe("<|>");
    expect(render("{a@o} {a@l}", { "a@o": { k: [1, "2"] }, "a@l": ["x", true] })).toBe('{"k":[1,"2"]} ["x",true]');
  });

  it("resolves a reference that appears several times only once per render", () => {
    let calls = 0;
    const out = renderTemplate(compileTemplate("{a@b}-{a@b}-{{a@b}}"), () => {
      calls++;
      return `v${calls}`;
    });
    expect(out).toBe("v1-v1-v1");
    expect(calls).toBe(1);
  });

  it("resolves again on the next render", () => {
    let n = 0;
    const t = compileTemplate("{a@b}");
    expect(renderTemplate(t, () => ++n)).toBe("1");
    expect(renderTemplate(t, () => ++n)).toBe("2");
  });

  it("renders aliases through the resolver", () => {
    expect(render("{index}: {item}", { index: 0, item: "apple" })).toBe("0: apple");
  });

  it("does not resolve anything for a static template and returns it unchanged", () => {
    expect(renderTemplate(compileTemplate("{line} {item}", false), noResolve)).toBe("{line} {item}");
  });

  it("does not read a substituted value again as a template", () => {
    expect(render("{a@b}", { "a@b": "{c@d} {sys.query} {item}" })).toBe("{c@d} {sys.query} {item}");
  });

  it("uses a custom stringify when given", () => {
    const t = compileTemplate("[{a@b}]");
    expect(renderTemplate(t, () => ["x", "y"], (v) => (Array.isArray(v) ? v.join(",") : String(v)))).toBe("[x,y]");
  });

  it("lets resolver errors through", () => {
    expect(() =>
      renderTemplate(compileTemplate("{a@b}"), () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
  });
});

describe("stringifyValue", () => {
  it("renders null and undefined as empty text", () => {
    expect(stringifyValue(null)).toBe("");
    expect(stringifyValue(undefined)).toBe("");
  });

  it("keeps strings unchanged", () => {
    expect(stringifyValue("")).toBe("");
    expect(stringifyValue('{"a":1}')).toBe('{"a":1}');
  });

  it("renders numbers, booleans and bigints as their text", () => {
    expect(stringifyValue(0)).toBe("0");
    expect(stringifyValue(-1.5)).toBe("-1.5");
    expect(stringifyValue(false)).toBe("false");
    expect(stringifyValue(10n)).toBe("10");
  });

  it("renders objects and lists as JSON", () => {
    expect(stringifyValue({ a: 1, b: [null, "x"] })).toBe('{"a":1,"b":[null,"x"]}');
    expect(stringifyValue([])).toBe("[]");
  });

  it("does not throw on values JSON cannot represent", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(typeof stringifyValue(cyclic)).toBe("string");
    expect(typeof stringifyValue(() => 1)).toBe("string");
    expect(typeof stringifyValue(Symbol("s"))).toBe("string");
  });

  it("property: strings unchanged, JSON values other than null and strings rendered as JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        if (value === null) expect(stringifyValue(value)).toBe("");
        else if (typeof value === "string") expect(stringifyValue(value)).toBe(value);
        else expect(stringifyValue(value)).toBe(JSON.stringify(value));
      }),
    );
  });
});

// ---- properties ----

const idChar = fc.constantFrom(..."abcXYZ019_:".split(""));
const varChar = fc.constantFrom(..."abcXYZ019_-".split(""));
const componentExpr = fc
  .tuple(fc.string({ unit: idChar, minLength: 1, maxLength: 6 }), fc.array(fc.string({ unit: varChar, minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }))
  .map(([id, segs]) => `${id}@${segs.join(".")}`);
const globalExpr = fc
  .tuple(fc.constantFrom("sys", "env"), fc.string({ unit: fc.constantFrom(..."abz09_.".split("")), minLength: 1, maxLength: 8 }))
  .filter(([, key]) => /[^.]/.test(key))
  .map(([scope, key]) => `${scope}.${key}`);
const expression = fc.oneof(componentExpr, globalExpr);
const braces = fc.constantFrom(["{", "}"], ["{{", "}}"], ["{ {", "} }"], ["{{{", "}}}"]);
/** Literal text that cannot merge with a neighbouring reference: no braces. */
const literal = fc.string({ maxLength: 8 }).map((s) => s.replace(/[{}]/g, ""));
const anyValue = fc.oneof(fc.jsonValue(), fc.constant(undefined), expression.map((e) => `{${e}}`), fc.string());

describe("template properties", () => {
  it("text without '{' renders unchanged and resolves nothing", () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (raw, aliases) => {
        const text = raw.replaceAll("{", "");
        const t = compileTemplate(text, aliases);
        expect(t.isStatic).toBe(true);
        expect(renderTemplate(t, noResolve)).toBe(text);
      }),
    );
  });

  it("rendering is the concatenation of the literal segments and the stringified values", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(literal, expression, braces, anyValue), { maxLength: 6 }),
        literal,
        (parts, tail) => {
          const values = new Map<string, unknown>();
          let text = "";
          let expected = "";
          const expectedSegments: string[] = [];
          for (const [lit, expr, [open, close], value] of parts) {
            // A reference that appears twice keeps its first value (one resolution per render).
            if (!values.has(expr)) values.set(expr, value);
            text += `${lit}${open}${expr}${close}`;
            expected += lit + stringifyValue(values.get(expr));
            expectedSegments.push(lit, `${open}${expr}${close}`);
          }
          text += tail;
          expected += tail;
          expectedSegments.push(tail);
          const t = compileTemplate(text);
          const raw = t.segments.map((s: TemplateSegment) => (typeof s === "string" ? s : s.raw));
          expect(raw).toEqual(expectedSegments.filter((s) => s.length > 0));
          expect(t.references.map(referenceKey)).toEqual(parts.map(([, expr]) => expr));
          expect(renderTemplate(t, (ref) => values.get(referenceKey(ref)))).toBe(expected);
        },
      ),
    );
  });

  it("values holding reference text are never substituted again", () => {
    fc.assert(
      fc.property(literal, expression, fc.array(fc.oneof(fc.string(), expression.map((e) => `{${e}}`), fc.constantFrom("{item}", "{{sys.query}}")), { maxLength: 4 }), literal, (before, expr, pieces, after) => {
        const value = pieces.join("");
        let calls = 0;
        const out = renderTemplate(compileTemplate(`${before}{${expr}}${after}`), () => {
          calls++;
          return value;
        });
        expect(out).toBe(before + value + after);
        expect(calls).toBe(1);
      }),
    );
  });

  it("the static segments of any text join back to the text", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("{", "}", "{{", " ", "{item}"), expression.map((e) => `{${e}}`)), { maxLength: 10 }), (parts) => {
        const text = parts.join("");
        const t = compileTemplate(text);
        expect(t.segments.map((s) => (typeof s === "string" ? s : s.raw)).join("")).toBe(text);
        expect(t.references).toEqual(findReferences(text));
      }),
    );
  });
});

describe("balanced braces (RAGFlow swallows every brace around a reference)", () => {
  const render = (text: string) => renderTemplate(compileTemplate(text), (ref) => `<${ref.expr}>`);

  it("keeps a closing brace that belongs to the surrounding text", () => {
    expect(render('{"q": {sys.query}}')).toBe('{"q": <sys.query>}');
    expect(render("{a@b}}")).toBe("<a@b>}");
  });

  it("keeps opening braces that have no closing partner", () => {
    expect(render("{{{a@b}")).toBe("{{<a@b>");
  });

  it("still replaces doubled and spaced doubled braces whole", () => {
    expect(render("x {{a@b}} y")).toBe("x <a@b> y");
    expect(render("x { {a@b} } y")).toBe("x <a@b> y");
    expect(render("{{{a@b}}}")).toBe("<a@b>");
  });

  it("finds the same references as before, in order", () => {
    expect(findReferences('{"a": {x@y}, "b": {{sys.query}}}').map((r) => r.expr)).toEqual(["x@y", "sys.query"]);
  });
});
