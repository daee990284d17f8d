/**
 * The Python program that runs a CodeExec script: it reads {script, args, memoryMb, limits, proxy}
 * as JSON on stdin, sets its limits, runs the script, calls main(**args) (awaiting it if it is a
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
 *
 * The other limits (`limits`: processes, open files, CPU seconds, file bytes) are set before the
 * script is even compiled, soft and hard alike, so the script cannot raise them again; core dumps
 * are off. In the sandbox, `proxy` asks for network through the egress proxy: the runner listens
 * on the sandbox's own loopback and forwards each connection to the proxy's socket, and the
 * script finds it in HTTP_PROXY and HTTPS_PROXY (the sandbox has no other network).
 */
export const PYTHON_RUNNER = String.raw`
import json, os, resource, sys, traceback

_reply = os.fdopen(3, "w", encoding="utf-8")
_runner_pid = os.getpid()

def _emit(obj):
    # A process the script forked returns here too: only the runner itself answers.
    if os.getpid() != _runner_pid:
        os._exit(0)
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

_LIMITS = {
    "processes": resource.RLIMIT_NPROC,
    "openFiles": resource.RLIMIT_NOFILE,
    "cpuSeconds": resource.RLIMIT_CPU,
    "fileBytes": resource.RLIMIT_FSIZE,
}

def _set_limits(limits):
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name, value in limits.items():
        which = _LIMITS[name]
        soft, hard = resource.getrlimit(which)
        wanted = int(value) if hard == resource.RLIM_INFINITY else min(int(value), hard)
        # CPU: SIGXCPU at the soft limit, SIGKILL a second later.
        resource.setrlimit(which, (wanted, wanted + 1 if name == "cpuSeconds" and hard == resource.RLIM_INFINITY else wanted))

def _pipe(source, target):
    import socket
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, target):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

def _forward(client, path):
    import socket, threading
    try:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        upstream.connect(path)
    except OSError:
        client.close()
        return
    threading.Thread(target=_pipe, args=(client, upstream), daemon=True).start()
    _pipe(upstream, client)
    client.close()
    upstream.close()

def _serve_proxy(path):
    import socket, threading
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    def accept():
        while True:
            client, _ = listener.accept()
            threading.Thread(target=_forward, args=(client, path), daemon=True).start()
    threading.Thread(target=accept, daemon=True).start()
    url = "http://127.0.0.1:%d" % listener.getsockname()[1]
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        os.environ[name] = url

async def _await(value):
    return await value

def _settle(value):
    # Imported only for a coroutine: asyncio alone takes longer to import than most scripts run.
    if hasattr(value, "__await__"):
        import asyncio
        return asyncio.run(_await(value))
    return value

def _run():
    payload = json.loads(sys.stdin.read())
    try:
        _set_limits(payload.get("limits", {}))
    except (OSError, ValueError) as error:
        return {"ok": False, "error": "the sandbox's limits could not be set: %s" % error}
    if payload.get("proxy"):
        try:
            _serve_proxy(payload["proxy"])
        except OSError as error:
            return {"ok": False, "error": "the network proxy could not start in the sandbox: %s" % error}
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
        result = _settle(main(**payload["args"]))
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
