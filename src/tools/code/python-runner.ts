/**
 * The Python program that runs a CodeExec script: it reads {script, args, memoryMb} as JSON on
 * stdin, limits its memory, runs the script, calls main(**args) (awaiting it if it is a
 * coroutine) and writes one JSON reply to file descriptor 3, { ok: true, json },
 * { ok: false, error } or { ok: false, outOfMemory: true, where }, and closes it, so that what
 * the script prints on stdout cannot be mistaken for its result.
 *
 * The memory limit is RLIMIT_DATA, set by the runner itself once the interpreter has started:
 * - RLIMIT_DATA rather than RLIMIT_AS: since Linux 4.7 it counts every private writable mapping
 *   (heap, anonymous mmap, thread stacks), which is what a script allocates, but not code, shared
 *   libraries, the locale archive, or address space reserved and never made writable (malloc's
 *   per-thread arenas, OpenBLAS). RLIMIT_AS counts all of those, so a normal script with a few
 *   threads or numpy failed under limits that RLIMIT_DATA lets it run in.
 * - In the runner, not with prlimit before exec: the interpreter's own start-up is never limited,
 *   and the limit is what is mapped just before the script runs plus memoryMb, so the script gets
 *   memoryMb to itself (as JavaScript gets its heap) whatever the interpreter's own size.
 * Programs the script starts inherit the limit; they are killed with the process group anyway.
 * Where /proc/self/status is missing (not Linux) the limit is memoryMb alone, and the kernel may
 * not enforce it for mmap (macOS does not).
 */
export const PYTHON_RUNNER = String.raw`
import asyncio, inspect, json, os, resource, sys, traceback

_reply = os.fdopen(3, "w", encoding="utf-8")

def _emit(obj):
    _reply.write(json.dumps(obj, ensure_ascii=False))
    _reply.close()

def _where(error):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == "script.py"]
    return " (script.py, line %d)" % frames[-1].lineno if frames else ""

def _mapped_data_bytes():
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0

def _limit_memory(megabytes):
    wanted = _mapped_data_bytes() + int(megabytes * 1024 * 1024)
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    # A stricter limit this process was started with stays.
    for given in (soft, hard):
        if given != resource.RLIM_INFINITY:
            wanted = min(wanted, given)
    resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))

def _out_of_memory(error, namespace):
    where = _where(error)
    # Drop what the script holds, so that answering needs no memory it cannot get.
    traceback.clear_frames(error.__traceback__)
    namespace.clear()
    return {"ok": False, "outOfMemory": True, "where": where}

async def _await(value):
    return await value

def _run():
    payload = json.loads(sys.stdin.read())
    try:
        code = compile(payload["script"], "script.py", "exec")
    except SyntaxError as error:
        return {"ok": False, "error": "SyntaxError: %s (script.py, line %s)" % (error.msg, error.lineno)}
    try:
        _limit_memory(payload["memoryMb"])
    except (OSError, ValueError) as error:
        return {"ok": False, "error": "the memory limit of %s MB could not be set: %s" % (payload["memoryMb"], error)}
    namespace = {"__name__": "main"}
    try:
        exec(code, namespace)
        main = namespace.get("main")
        if not callable(main):
            return {"ok": False, "error": "the script defines no main function (def main(...): ...)"}
        result = main(**payload["args"])
        if inspect.isawaitable(result):
            result = asyncio.run(_await(result))
    except MemoryError as error:
        return _out_of_memory(error, namespace)
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
    except MemoryError:
        return {"ok": False, "outOfMemory": True, "where": " (while turning the result into JSON)"}

_emit(_run())
`;
