"""Reads a JSON list of YAML texts on stdin, loads each with yaml.safe_load (what Dify's DSL import
calls) and writes a JSON list: {"ok": value} or {"error": "Type: message"}. Values that JSON cannot
hold are tagged: {"$int": hex}, {"$float": repr}, {"$bytes": base64}, {"$date"|"$datetime": isoformat},
{"$set": [...]}, {"$tuple": [...]}, {"$map": [[key text as json.dumps writes it, value], ...]}."""
import base64, datetime, json, math, sys
import yaml

def key_text(key):
    if isinstance(key, str): return key
    if key is True: return "true"
    if key is False: return "false"
    if key is None: return "null"
    if isinstance(key, int): return str(key)
    if isinstance(key, float):
        if math.isnan(key): return "NaN"
        if math.isinf(key): return "Infinity" if key > 0 else "-Infinity"
        return repr(key)
    if isinstance(key, (datetime.date, datetime.datetime)): return key.isoformat()
    if isinstance(key, bytes): return base64.b64encode(key).decode("ascii")
    raise TypeError("a key of type %s" % type(key).__name__)

def encode(value, seen):
    if value is None or isinstance(value, (bool, str)): return value
    if isinstance(value, int): return {"$int": hex(value)}
    if isinstance(value, float):
        if math.isnan(value): return {"$float": "nan"}
        if math.isinf(value): return {"$float": "inf" if value > 0 else "-inf"}
        return {"$float": repr(value)}
    if isinstance(value, bytes): return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, datetime.datetime): return {"$datetime": value.isoformat()}
    if isinstance(value, datetime.date): return {"$date": value.isoformat()}
    if id(value) in seen: raise ValueError("a recursive structure")
    seen = seen | {id(value)}
    if isinstance(value, (set, frozenset)): return {"$set": [encode(item, seen) for item in value]}
    if isinstance(value, tuple): return {"$tuple": [encode(item, seen) for item in value]}
    if isinstance(value, list): return [encode(item, seen) for item in value]
    if isinstance(value, dict): return {"$map": [[key_text(k), encode(v, seen)] for k, v in value.items()]}
    raise TypeError("a value of type %s" % type(value).__name__)

def load(text):
    try:
        return {"ok": encode(yaml.safe_load(text), frozenset())}
    except Exception as error:
        return {"error": "%s: %s" % (type(error).__name__, str(error).replace("\n", " | "))}

sys.setrecursionlimit(10000)
texts = json.loads(sys.stdin.buffer.read().decode("utf-8"))
json.dump([load(text) for text in texts], sys.stdout)
