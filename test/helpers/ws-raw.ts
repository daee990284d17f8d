/**
 * A WebSocket client written on a bare TCP socket, to behave as an attacker does: it upgrades,
 * then writes frames as fast as the socket takes them and reads nothing (the socket is paused).
 * Reading can be switched on later to see what the server queued (its frames, its close code).
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

export interface RawWebSocket {
  socket: Socket;
  /** Write frames from the client (masked, as a client must); resolves once the socket takes more. */
  write(frames: Buffer): Promise<void>;
  /** Start reading (from then on, `received` fills as the server's frames arrive). */
  read(): void;
  /** The server's frames read so far. */
  received: ServerFrame[];
  /** Resolves once `received` satisfies `done`; rejects when the socket ends first. */
  until(done: (received: ServerFrame[]) => boolean): Promise<ServerFrame[]>;
  /** Resolves when the socket has ended or failed (the server closed or reset it). */
  ended: Promise<void>;
}

export interface ServerFrame {
  opcode: number;
  payload: Buffer;
}

export const OPCODE = { text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** One client frame (FIN set, masked), of any opcode. */
export function clientFrame(opcode: number, payload: Buffer | string): Buffer {
  const data = typeof payload === "string" ? Buffer.from(payload) : payload;
  const mask = randomBytes(4);
  const length = data.length;
  const header = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length]) : length < 65536 ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff]) : Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | 127]), bigLength(length)]);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = data[i] ^ mask[i & 3];
  return Buffer.concat([header, mask, masked]);
}

function bigLength(length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(length));
  return out;
}

/** The server's frames in `data` (unmasked), and the bytes of a partial frame at its end. */
export function serverFrames(data: Buffer): { frames: ServerFrame[]; rest: Buffer } {
  const frames: ServerFrame[] = [];
  let at = 0;
  while (at + 2 <= data.length) {
    const opcode = data[at] & 0x0f;
    let length = data[at + 1] & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (start + 2 > data.length) break;
      length = data.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > data.length) break;
      length = Number(data.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > data.length) break;
    frames.push({ opcode, payload: Buffer.from(data.subarray(start, start + length)) });
    at = start + length;
  }
  return { frames, rest: data.subarray(at) };
}

/** The close code of a close frame's payload (1005 when it has none). */
export function closeCode(frame: ServerFrame): number {
  return frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
}

/**
 * Upgrade `url` (ws://127.0.0.1:port/path) with these headers, then stop reading. Rejects with the
 * answer's status line when the upgrade is refused.
 */
export function openRawWebSocket(url: string, headers: Record<string, string>): Promise<RawWebSocket> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname, port: Number(target.port) });
    let head = Buffer.alloc(0);
    const ended = new Promise<void>((done) => {
      socket.once("close", () => done());
      socket.on("error", () => undefined);
    });
    socket.once("error", reject);
    socket.once("connect", () => {
      const lines = [`GET ${target.pathname} HTTP/1.1`, `Host: ${target.host}`, "Upgrade: websocket", "Connection: Upgrade", `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`, "Sec-WebSocket-Version: 13"];
      for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onHead);
      socket.pause();
      const status = head.subarray(0, head.indexOf("\r\n")).toString();
      if (!status.startsWith("HTTP/1.1 101")) {
        socket.destroy();
        reject(new Error(`the upgrade was refused: ${status}: ${head.subarray(end + 4).toString()}`));
        return;
      }
      let pending = head.subarray(end + 4);
      const received: ServerFrame[] = [];
      const watchers: Array<() => void> = [];
      let over = false;
      void ended.then(() => {
        over = true;
        for (const watch of watchers.splice(0)) watch();
      });
      resolve({
        socket,
        ended,
        received,
        write: (frames) =>
          new Promise<void>((done, fail) => {
            if (socket.destroyed) return fail(new Error("the socket is closed"));
            if (socket.write(frames)) return done();
            const settle = () => {
              socket.off("drain", settle);
              socket.off("close", settle);
              if (socket.destroyed) fail(new Error("the socket is closed"));
              else done();
            };
            socket.on("drain", settle);
            socket.on("close", settle);
          }),
        read: () => {
          socket.on("data", (data: Buffer) => {
            const parsed = serverFrames(pending.length > 0 ? Buffer.concat([pending, data]) : data);
            received.push(...parsed.frames);
            pending = Buffer.from(parsed.rest);
            for (const watch of watchers.splice(0)) watch();
          });
          socket.resume();
        },
        until: (done) =>
          new Promise<ServerFrame[]>((settle, fail) => {
            const watch = () => {
              if (done(received)) settle(received);
              else if (over) fail(new Error(`the connection ended after ${received.length} frames from the server`));
              else watchers.push(watch);
            };
            watch();
          }),
      });
    };
    socket.on("data", onHead);
  });
}
