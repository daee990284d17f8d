/**
 * PyYAML's SafeLoader as a custom schema for the `yaml` package: its implicit resolvers
 * (resolver.py: which plain scalars are bools, ints, floats, nulls, timestamps, `<<` and `=`)
 * and its scalar constructors (constructor.py: construct_yaml_int and the rest), for explicit
 * tags as well. `y`/`n` stay text, a float needs a dot, `0o17` and `1e3` stay text, `0_` is 0.
 * Collection tags (!!set, !!omap, !!pairs) are built by ./construct.ts.
 */
import type { ScalarTag } from "yaml";
import { pythonBase64Decode, pythonFloat, pythonInt, pythonTimestamp } from "./python-literals.js";
import { PyBytes, PyFloat, PyInt, PyMarker, type PyScalar } from "./python-values.js";

export const TAG = {
  bool: "tag:yaml.org,2002:bool",
  int: "tag:yaml.org,2002:int",
  float: "tag:yaml.org,2002:float",
  null: "tag:yaml.org,2002:null",
  str: "tag:yaml.org,2002:str",
  binary: "tag:yaml.org,2002:binary",
  timestamp: "tag:yaml.org,2002:timestamp",
  merge: "tag:yaml.org,2002:merge",
  value: "tag:yaml.org,2002:value",
  map: "tag:yaml.org,2002:map",
  seq: "tag:yaml.org,2002:seq",
  set: "tag:yaml.org,2002:set",
  omap: "tag:yaml.org,2002:omap",
  pairs: "tag:yaml.org,2002:pairs",
} as const;

const BOOL_VALUES: Record<string, boolean> = { yes: true, no: false, true: true, false: false, on: true, off: false };

function constructBool(text: string): boolean {
  const value = BOOL_VALUES[text.toLowerCase()];
  if (value === undefined) throw new Error(`'${text}' is not a bool (PyYAML reads yes/no/true/false/on/off)`);
  return value;
}

/** PyYAML's sign handling: the first character only, then the rest. */
function splitSign(text: string, type: string): [1 | -1, string] {
  if (text === "") throw new Error(`an empty value is not an ${type}`);
  const sign = text[0] === "-" ? -1 : 1;
  return [sign, text[0] === "-" || text[0] === "+" ? text.slice(1) : text];
}

function constructInt(source: string): PyInt {
  const [sign, value] = splitSign(source.replace(/_/g, ""), "int");
  const signed = (n: bigint) => new PyInt(sign < 0 ? -n : n);
  if (value === "0") return new PyInt(0n);
  if (value.startsWith("0b")) return signed(pythonInt(value.slice(2), 2));
  if (value.startsWith("0x")) return signed(pythonInt(value.slice(2), 16));
  if (value[0] === "0") return signed(pythonInt(value, 8));
  if (value.includes(":")) {
    let total = 0n;
    let base = 1n;
    for (const part of value.split(":").reverse()) {
      total += pythonInt(part, 10) * base;
      base *= 60n;
    }
    return signed(total);
  }
  if (value === "") throw new Error(`'${source}' is not an int`);
  return signed(pythonInt(value, 10));
}

function constructFloat(source: string): PyFloat {
  const [sign, value] = splitSign(source.replace(/_/g, "").toLowerCase(), "float");
  if (value === ".inf") return new PyFloat(sign * Infinity);
  if (value === ".nan") return new PyFloat(NaN);
  if (value.includes(":")) {
    let total = 0;
    let base = 1;
    for (const part of value.split(":").reverse()) {
      total += pythonFloat(part) * base;
      base *= 60;
    }
    return new PyFloat(sign * total);
  }
  if (value === "") throw new Error(`'${source}' is not a float`);
  const parsed = pythonFloat(value);
  return new PyFloat(sign * parsed, !Number.isNaN(parsed));
}

function constructBinary(text: string): PyBytes {
  if (/[^\x00-\x7f]/.test(text)) throw new Error("failed to convert base64 data into ascii: it holds non-ASCII characters");
  try {
    return new PyBytes(pythonBase64Decode(text));
  } catch (error) {
    throw new Error(`failed to decode base64 data: ${(error as Error).message}`);
  }
}

interface Resolver {
  tag: string;
  /** resolver.py's pattern for plain scalars; none for tags that are only ever explicit. */
  implicit?: RegExp;
  construct: (text: string) => PyScalar | PyMarker;
}

/** In resolver.py's order (bool, float, int, merge, null, timestamp, value, yaml). */
const RESOLVERS: Resolver[] = [
  { tag: TAG.bool, implicit: /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/, construct: constructBool },
  {
    tag: TAG.float,
    implicit:
      /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
    construct: constructFloat,
  },
  {
    tag: TAG.int,
    implicit: /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
    construct: constructInt,
  },
  { tag: TAG.merge, implicit: /^<<$/, construct: (text) => new PyMarker(TAG.merge, text) },
  { tag: TAG.null, implicit: /^(?:~|null|Null|NULL|)$/, construct: () => null },
  {
    tag: TAG.timestamp,
    implicit:
      /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/,
    construct: pythonTimestamp,
  },
  { tag: TAG.value, implicit: /^=$/, construct: (text) => new PyMarker(TAG.value, text) },
  // resolver.py's "documentation only" resolver: reached by `! "!"`, which SafeLoader then refuses.
  {
    tag: "tag:yaml.org,2002:yaml",
    implicit: /^(?:!|&|\*)$/,
    construct: () => {
      throw new Error("could not determine a constructor for the tag 'tag:yaml.org,2002:yaml'");
    },
  },
  { tag: TAG.str, construct: (text) => text },
  { tag: TAG.binary, construct: constructBinary },
];

/** The constructor for an explicit scalar tag, if SafeLoader has one. */
export function scalarConstructor(tag: string): ((text: string) => PyScalar | PyMarker) | undefined {
  return RESOLVERS.find((resolver) => resolver.tag === tag)?.construct;
}

/** A plain scalar (or one tagged `!`) as resolver.py resolves and constructor.py builds it. */
export function resolvePlain(text: string): PyScalar | PyMarker {
  for (const resolver of RESOLVERS) if (resolver.implicit?.test(text)) return resolver.construct(text);
  return text;
}

/**
 * The schema's tags: one implicit tag per resolver (tried in order on plain scalars) and one
 * explicit tag per constructor (`!!float 1` is 1.0 although `1` is no float pattern).
 */
export const PYYAML_SAFE_TAGS: ScalarTag[] = [
  ...RESOLVERS.filter((resolver) => resolver.implicit).map(
    (resolver): ScalarTag => ({ tag: resolver.tag, default: true, test: resolver.implicit, resolve: (text) => resolver.construct(text) as never }),
  ),
  ...RESOLVERS.map((resolver): ScalarTag => ({ tag: resolver.tag, default: false, resolve: (text) => resolver.construct(text) as never })),
];
