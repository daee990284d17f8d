/**
 * The Python program that runs a CodeExec script: it reads {script, args} as JSON on stdin, runs
 * the script, calls main(**args) (awaiting it if it is a coroutine) and writes one JSON reply to
 * file descriptor 3, { ok: true, json } or { ok: false, error }, and closes it, so that what the
 * script prints on stdout cannot be mistaken for its result.
 */
export const PYTHON_RUNNER = String.raw`
import asyncio, inspect, json, os, sys, traceback

_reply = os.fdopen(3, "w", encoding="utf-8")

def _emit(obj):
    _reply.write(json.dumps(obj, ensure_ascii=False))
    _reply.close()

def _where(error):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == "script.py"]
    return " (script.py, line %d)" % frames[-1].lineno if frames else ""

async def _await(value):
    return await value

def _run():
    payload = json.loads(sys.stdin.read())
    try:
        code = compile(payload["script"], "script.py", "exec")
    except SyntaxError as error:
        return {"ok": False, "error": "SyntaxError: %s (script.py, line %s)" % (error.msg, error.lineno)}
    namespace = {"__name__": "main"}
    try:
        exec(code, namespace)
        main = namespace.get("main")
        if not callable(main):
            return {"ok": False, "error": "the script defines no main function (def main(...): ...)"}
        result = main(**payload["args"])
        if inspect.isawaitable(result):
            result = asyncio.run(_await(result))
    except BaseException as error:
        return {"ok": False, "error": "%s: %s%s" % (type(error).__name__, error, _where(error))}
    if isinstance(result, tuple):
        result = list(result)
    if result is not None and not isinstance(result, (bool, int, float, str, dict, list)):
        return {"ok": False, "error": "unsupported top-level result type: %s. Allowed top-level values are String, Number, Boolean, Object, Array, or Null." % type(result).__name__}
    try:
        return {"ok": True, "json": json.dumps(result, ensure_ascii=False, allow_nan=False)}
    except (TypeError, ValueError) as error:
        return {"ok": False, "error": "the result cannot be turned into JSON: %s" % error}

_emit(_run())
`;
