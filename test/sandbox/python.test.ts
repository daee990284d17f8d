/**
 * CodeExec's Python sandbox: bubblewrap around python3. main's calling convention and results,
 * and the limits (time, memory, processes, output), each shown holding, with nothing left
 * running; the same runner trusted (no sandbox) for `canvasflow run --trust-code`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isUnavailable } from "../../src/components/unavailable.js";
import { codeSandboxSettings } from "../../src/sandbox/code/options.js";
import { runPython } from "../../src/sandbox/code/python.js";
import { missing as missingTool } from "../helpers/system-tools.js";

const PY = codeSandboxSettings({ timeoutMs: 20_000, memoryMb: 256 });
const TRUSTED = { ...PY, trustCode: true };
const noBwrap = missingTool("bwrap", "the Python sandbox's tests");

/** The host processes whose command line holds `marker` (running ones; zombies are gone). */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const [cmdline, status] = await Promise.all([readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => ""), readFile(`/proc/${entry}/status`, "utf8").catch(() => "")]);
    if (cmdline.includes(marker) && !/State:\s+Z/.test(status)) found.push(Number(entry));
  }
  return found;
}

describe.each([
  ["in the sandbox", PY],
  ["trusted", TRUSTED],
])("Python %s", (_, settings) => {
  // Trusted code runs without the sandbox: only the sandboxed row needs bwrap.
  const skip = settings === PY && noBwrap;
  it.skipIf(skip)("calls main(**args) and returns its value; prints are not the result", async () => {
    expect(await runPython("def main(x, y):\n    print('noise')\n    return {'sum': x + y, 'pair': (x, y)}", { x: 1, y: 2 }, settings)).toEqual({ sum: 3, pair: [1, 2] });
    expect(await runPython("async def main():\n    return 'awaited'", {}, settings)).toBe("awaited");
    expect(await runPython("def main():\n    pass\nif __name__ == '__main__':\n    raise SystemExit('not run')", {}, settings)).toBeNull();
  });

  it.skipIf(skip)("reports errors with their line, missing main, and results that are not JSON data", async () => {
    await expect(runPython("def main():\n    return 1 / 0", {}, settings)).rejects.toThrow("Python error: ZeroDivisionError: division by zero (script.py, line 2)");
    await expect(runPython("def main(:\n    pass", {}, settings)).rejects.toThrow("Python error: SyntaxError");
    await expect(runPython("x = 1", {}, settings)).rejects.toThrow("the script defines no main function");
    await expect(runPython("def main():\n    return {1, 2}", {}, settings)).rejects.toThrow("unsupported top-level result type: set");
    await expect(runPython("def main():\n    return float('nan')", {}, settings)).rejects.toThrow("the result cannot be turned into JSON");
    await expect(runPython("def main(a):\n    return a", { b: 1 }, settings)).rejects.toThrow("TypeError: main() got an unexpected keyword argument 'b'");
  });

  it.skipIf(skip)("kills every process the script started when the time limit passes", async () => {
    const marker = `${Math.floor(Math.random() * 1e6)}.5`;
    const script = `import subprocess, time\ndef main():\n    subprocess.Popen(['sleep', '${marker}'])\n    time.sleep(60)`;
    await expect(runPython(script, {}, { ...settings, timeoutMs: 1500 })).rejects.toThrow("Python main did not finish within 1.5 s: the process was killed");
    await expect.poll(() => processesWith(marker)).toEqual([]);
  });

  it.skipIf(skip)("stops a memory bomb at the memory limit", async () => {
    const limited = { ...settings, memoryMb: 128 };
    // One huge allocation (about 9.8 GB without a limit), and many small ones that are all kept.
    await expect(runPython("def main():\n    return len(' ' * 10**10)", {}, limited)).rejects.toThrow("Python ran out of memory (limit 128 MB): the script was stopped (script.py, line 2)");
    const creeping = "def main():\n    kept = []\n    while True:\n        kept.append(bytearray(1 << 20))";
    await expect(runPython(creeping, {}, limited)).rejects.toThrow("Python ran out of memory (limit 128 MB): the script was stopped (script.py, line 4)");
  });

  it.skipIf(skip)("reports the memory limit when the interpreter dies of it before answering", async () => {
    // The script replaces the runner with an interpreter that inherits the limit and dies of a MemoryError nobody catches.
    const script = "import os, sys\ndef main():\n    os.execv(sys.executable, [sys.executable, '-c', 'x = bytes(10**10)'])";
    await expect(runPython(script, {}, { ...settings, memoryMb: 64 })).rejects.toThrow(/^Python ran out of memory \(limit 64 MB\): the script was stopped: .*MemoryError/);
  });

  it.skipIf(skip)("lets ordinary scripts (imports, threads, tens of MB) run under the limits", async () => {
    const script = [
      "import asyncio, collections, decimal, json, re, statistics, tempfile",
      "from concurrent.futures import ThreadPoolExecutor",
      "def main():",
      "    block = bytearray(64 << 20)",
      "    with ThreadPoolExecutor(4) as pool:",
      "        sizes = list(pool.map(lambda n: len(bytes(n << 20)), range(1, 9)))",
      "    with tempfile.TemporaryFile() as scratch:",
      "        scratch.write(b'x' * 1000)",
      "        scratch.seek(0)",
      "        written = len(scratch.read())",
      "    return [len(block) >> 20, sum(sizes) >> 20, statistics.mean([1, 2, 3]), written]",
    ].join("\n");
    expect(await runPython(script, {}, { ...settings, memoryMb: 128 })).toEqual([64, 36, 2, 1000]);
  });

  it.skipIf(skip)("answers when main returns, even while a program it started holds stdout open", async () => {
    const script = "import subprocess\ndef main():\n    subprocess.Popen(['sleep', '60'])\n    return 'done'";
    expect(await runPython(script, {}, { ...settings, timeoutMs: 10_000 })).toBe("done");
  });

  it.skipIf(skip)("gives the script none of this process's environment variables (API keys)", async () => {
    process.env.CANVASFLOW_TEST_SECRET = "s3cret";
    try {
      expect(await runPython("import os\ndef main():\n    return os.environ.get('CANVASFLOW_TEST_SECRET')", {}, settings)).toBeNull();
    } finally {
      delete process.env.CANVASFLOW_TEST_SECRET;
    }
  });

  it.skipIf(skip)("stops a script that prints too much, or returns too much", async () => {
    const small = { ...settings, outputBytes: 64 * 1024 };
    await expect(runPython("def main():\n    while True:\n        print('x' * 1000)", {}, small)).rejects.toThrow("the Python script printed more than 64 KiB (stdout and stderr): the process was killed");
    await expect(runPython("import sys\ndef main():\n    sys.stderr.write('e' * 100000)\n    return 1", {}, small)).rejects.toThrow("printed more than 64 KiB");
    await expect(runPython("def main():\n    return 'x' * 200000", {}, small)).rejects.toThrow("main's result is larger than 64 KiB: the process was killed");
  });

  it.skipIf(skip)("names a Python interpreter that cannot be found", async () => {
    const missing = runPython("def main():\n    return 1", {}, { ...settings, python: "python-that-does-not-exist" });
    await expect(missing).rejects.toThrow("python-that-does-not-exist was not found: install Python 3, or set the codeExec service's python option");
    await missing.catch((error: unknown) => expect(isUnavailable(error)).toBe(true));
  });
});

describe.skipIf(noBwrap)("Python in the sandbox", () => {
  it("stops a fork bomb at the process limit, and leaves nothing running", async () => {
    const marker = `bomb-${Math.floor(Math.random() * 1e9)}`;
    const bomb = `import os, time\ndef main():\n    forked = 0\n    try:\n        while True:\n            if os.fork() == 0:\n                os.execvp('sleep', ['sleep', '30', '${marker}'])\n            forked += 1\n    except OSError as error:\n        return [forked, error.errno]`;
    const [forked, errno] = (await runPython(bomb, {}, { ...PY, processes: 8 })) as [number, number];
    // EAGAIN once 8 processes (the runner and its children) exist.
    expect(errno).toBe(11);
    expect(forked).toBeLessThanOrEqual(8);
    await expect.poll(() => processesWith(marker)).toEqual([]);
  });

  it("bounds the private /tmp, and the files a script may have open", async () => {
    const fill = "def main():\n    with open('/tmp/big', 'wb') as f:\n        while True:\n            f.write(b'x' * (1 << 20))";
    await expect(runPython(fill, {}, { ...PY, tmpMb: 4 })).rejects.toThrow(/File too large|No space left|Python (was killed|exited)/);
    const files = "def main():\n    kept = []\n    while True:\n        kept.append(open('/dev/null'))";
    await expect(runPython(files, {}, { ...PY, openFiles: 32 })).rejects.toThrow("OSError: [Errno 24] Too many open files");
  });

  it("runs each script with a /tmp of its own", async () => {
    await runPython("def main():\n    open('/tmp/left-behind', 'w').write('secret')", {}, PY);
    expect(await runPython("import os\ndef main():\n    return os.listdir('/tmp')", {}, PY)).toEqual([]);
  });
});

/**
 * A server not run as root takes the other path: bwrap makes a user namespace (and forbids more
 * inside), and RLIMIT_NPROC counts that namespace's processes. Where the tests run as root, the
 * Python sandbox's compiled modules are copied where any user can read them and run by a child
 * process as uid 65534, with Debian's python3 (nobody may not reach a root-only interpreter).
 */
describe.runIf(!noBwrap && process.getuid?.() === 0 && existsSync("/usr/bin/python3") && existsSync("/usr/bin/setpriv"))("Python in the sandbox, the server not being root", () => {
  it("runs in a user namespace, with the process limit and the seccomp filter holding", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "canvasflow-nonroot-"));
    try {
      // The sandbox's modules import only their room, util and node's own (checked: the copy runs).
      for (const folder of ["src/sandbox", "src/util"]) cpSync(path.join("dist", folder), path.join(root, folder), { recursive: true });
      writeFileSync(path.join(root, "package.json"), '{"type":"module"}');
      writeFileSync(
        path.join(root, "probe.mjs"),
        [
          'import { runPython } from "./src/sandbox/code/python.js";',
          'import { codeSandboxSettings } from "./src/sandbox/code/options.js";',
          'const s = codeSandboxSettings({ python: "/usr/bin/python3", timeoutMs: 10000, processes: 8 });',
          "const out = { who: await runPython(\"import os\\ndef main():\\n    return [os.getuid(), sorted(os.listdir('/proc'))[:3]]\", {}, s) };",
          "try { await runPython(\"import os\\ndef main():\\n    while True: os.fork()\", {}, s); } catch (e) { out.bomb = e.message; }",
          "out.unshare = await runPython(\"import ctypes\\ndef main():\\n    libc = ctypes.CDLL(None, use_errno=True)\\n    return [libc.unshare(0x10000000), ctypes.get_errno()]\", {}, s);",
          "console.log(JSON.stringify(out));",
        ].join("\n"),
      );
      chmodSync(root, 0o755);
      const child = spawnSync("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, path.join(root, "probe.mjs")], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: "/tmp" }, timeout: 60_000 });
      expect(child.status, child.stderr).toBe(0);
      const out = JSON.parse(child.stdout) as { who: [number, string[]]; bomb: string; unshare: [number, number] };
      expect(out.who[0]).toBe(65534);
      expect(out.bomb).toMatch(/Resource temporarily unavailable/);
      expect(out.unshare).toEqual([-1, 1]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
