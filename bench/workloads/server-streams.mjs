/**
 * server-streams: 500 SSE clients at once on a canvas that streams for 5 s (100 model tokens,
 * one every 50 ms, into a Message), each a native `stream:true` completion starting a new
 * session, on a SQLite store and on Redis. The server runs in a child process
 * (../server/process.mjs says why); the clients here read the raw SSE with node:http. First the
 * same 500 clients read a bare Fastify route in that process that streams the same tokens in the
 * same frames: the baseline of what the machine does at that moment (it is shared; its load
 * average is in the record).
 *
 * Event latency: each token is the time it was due in the server process (see
 * ../server/streams-server.mjs); on arrival of the frame carrying it, the client takes
 * `performance.timeOrigin + performance.now()` minus that. Both processes read the same system
 * clock. Also reported after the ramp, i.e. for tokens due once every stream has had its first:
 * while streams still start, their turns' setup shares the CPU with the tokens of the others.
 * RSS is the server process's, idle and the peak (sampled every 50 ms) during each store's load;
 * CPU is what the server process used meanwhile (every thread).
 *
 * Targets, on each store: every stream completes (all its tokens, a workflow_finished without
 * error, then `data:[DONE]`), and the p99 event latency is at most 2× the bare route's p99 in the
 * same run (the machine's own latency at that moment, which an absolute bar would ignore).
 */
import http from "node:http";
import { fileURLToPath } from "node:url";
import { percentile, round, startServerProcess } from "../server/process.mjs";

export const kind = "server";

const SERVER = fileURLToPath(new URL("../server/streams-server.mjs", import.meta.url));
/** BENCH_STREAM_CLIENTS changes it, to see how latency grows with the clients. */
const CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 500);
const STREAM_TIMEOUT_MS = 180_000;
const now = () => performance.timeOrigin + performance.now();

/** One native stream, read frame by frame; resolves to what it saw. */
function readStream(url, headers, body, agent) {
  return new Promise((resolve) => {
    const seen = { latencies: [], firstArrival: undefined, tokens: 0, finished: false, finishedError: undefined, done: false, error: undefined };
    const request = http.request(url, { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } });
    const timer = setTimeout(() => request.destroy(new Error(`no [DONE] after ${STREAM_TIMEOUT_MS} ms`)), STREAM_TIMEOUT_MS);
    const end = (error) => {
      clearTimeout(timer);
      if (error) seen.error ??= error.message;
      resolve(seen);
    };
    request.on("error", end);
    request.on("response", (response) => {
      if (response.statusCode !== 200) end(new Error(`HTTP ${response.statusCode}`));
      response.setEncoding("utf8");
      let buffered = "";
      response.on("data", (chunk) => {
        const arrived = now();
        buffered += chunk;
        let cut;
        while ((cut = buffered.indexOf("\n\n")) >= 0) {
          const frame = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          if (frame === "data:[DONE]") {
            seen.done = true;
            continue;
          }
          const event = JSON.parse(frame.slice("data:".length));
          if (event.event === "message") {
            for (const due of event.data.content.trim().split(/\s+/)) {
              if (due === "") continue;
              seen.latencies.push({ due: Number(due), ms: arrived - Number(due) });
              seen.firstArrival ??= arrived;
              seen.tokens++;
            }
          } else if (event.event === "workflow_finished") {
            seen.finished = true;
            seen.finishedError = event.data.error;
          }
        }
      });
      // An application error is a JSON envelope, not a stream.
      response.on("end", () => end(buffered.trim() === "" ? undefined : new Error(`not a stream: ${buffered.slice(0, 200)}`)));
      response.on("error", end);
    });
    request.end(body);
  });
}

/** CLIENTS streams at once; their completion and latency figures. */
async function load(url, headers, body, tokens) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  try {
    const started = now();
    const streams = await Promise.all(Array.from({ length: CLIENTS }, () => readStream(url, headers, body, agent)));
    const wallMs = now() - started;
    const complete = streams.filter((s) => s.done && s.finished && s.finishedError === undefined && s.tokens === tokens && !s.error);
    const problems = [...new Set(streams.filter((s) => !complete.includes(s)).map((s) => s.error ?? s.finishedError ?? `${s.tokens}/${tokens} tokens, done ${s.done}, finished ${s.finished}`))];
    const all = streams.flatMap((s) => s.latencies);
    const latencies = all.map((l) => l.ms).sort((a, b) => a - b);
    const rampEnd = Math.max(...streams.map((s) => s.firstArrival ?? 0));
    const steady = all
      .filter((l) => l.due >= rampEnd)
      .map((l) => l.ms)
      .sort((a, b) => a - b);
    return {
      completed: complete.length,
      problems: problems.slice(0, 5),
      events: latencies.length,
      latency_ms: { p50: round(percentile(latencies, 0.5)), p90: round(percentile(latencies, 0.9)), p99: round(percentile(latencies, 0.99)), max: round(latencies.at(-1)) },
      steady: { ramp_s: round((rampEnd - started) / 1000), events: steady.length, p50_ms: round(percentile(steady, 0.5)), p99_ms: round(percentile(steady, 0.99)) },
      wall_s: round(wallMs / 1000),
    };
  } finally {
    agent.destroy();
  }
}

/** One canvasflow server under the load, with what its process used meanwhile. */
async function loadCanvasflow(server, target, tokens) {
  await server.call("resetPeak");
  const figures = await load(new URL("/api/v1/agents/chat/completions", target.url), { authorization: `Bearer ${target.key}` }, JSON.stringify({ agent_id: target.agentId, query: "go", stream: true }), tokens);
  const usage = await server.call("rss");
  return {
    ...figures,
    server_rss_mb: { idle: round(usage.idleRss / 2 ** 20, 1), peak: round(usage.peakRss / 2 ** 20, 1), after: round(usage.rss / 2 ** 20, 1) },
    server_cpu_s: round(usage.cpuMs / 1000),
    server_loop_delay_ms: { p99: round(usage.loopDelayP99Ms), max: round(usage.loopDelayMaxMs) },
  };
}

export async function measure() {
  const server = await startServerProcess(SERVER);
  try {
    const { info } = server;
    const bare = await load(info.bareUrl, {}, "{}", info.tokens);
    const sqlite = await loadCanvasflow(server, info.sqlite, info.tokens);
    const redis = await loadCanvasflow(server, info.redis, info.tokens);
    return { clients: CLIENTS, tokens_per_stream: info.tokens, token_interval_ms: info.intervalMs, bare, sqlite, redis };
  } finally {
    await server.stop();
  }
}

const STORES = ["sqlite", "redis"];

export function target(figures) {
  const bound = 2 * figures.bare.latency_ms.p99;
  const met = (f) => f.completed === figures.clients && f.latency_ms.p99 <= bound;
  const text = STORES.map((name) => `${name}: ${figures[name].completed}/${figures.clients} complete, p99 ${figures[name].latency_ms.p99} ms`).join("; ");
  return [`${text} (every stream complete, p99 ≤ 2× the bare route's ${figures.bare.latency_ms.p99} ms = ${round(bound)} ms)`, STORES.every((name) => met(figures[name]))];
}

export function describe(figures) {
  const latency = (f) => `${f.completed} complete, p50 ${f.latency_ms.p50} / p99 ${f.latency_ms.p99} / max ${f.latency_ms.max} ms`;
  const side = (name) => {
    const f = figures[name];
    return `${name} ${latency(f)} in ${f.wall_s} s (after the ${f.steady.ramp_s} s ramp p99 ${f.steady.p99_ms} ms), CPU ${f.server_cpu_s} s, RSS ${f.server_rss_mb.idle} → ${f.server_rss_mb.peak} MB`;
  };
  return `${figures.clients} streams × ${figures.tokens_per_stream} tokens · bare ${latency(figures.bare)} · ${side("sqlite")} · ${side("redis")}`;
}
