/**
 * A loopback OTLP/HTTP trace receiver for tests: a node:http server on 127.0.0.1 that accepts
 * `POST /v1/traces` as JSON (application/json) and as protobuf (application/x-protobuf), and keeps
 * each span as a plain object. The protobuf is read with the wire reader
 * @opentelemetry/otlp-transformer ships (its build's ProtobufReader), after the field numbers of
 * opentelemetry/proto/trace/v1/trace.proto.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type ReceivedValue = string | number | boolean | ReceivedValue[] | { [key: string]: ReceivedValue } | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** SpanKind as OTLP numbers it (1 internal, 2 server, 3 client…). */
  kind: number;
  attributes: Record<string, ReceivedValue>;
  /** code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, ReceivedValue> }>;
  /** The resource's attributes (service.name…). */
  resource: Record<string, ReceivedValue>;
  /** The instrumentation scope's name (the tracer's). */
  scope: string;
}

export interface ReceivedRequest {
  contentType: string;
  headers: IncomingHttpHeaders;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port> (the traces URL is `${base}/v1/traces`). */
  base: string;
  url: string;
  requests: ReceivedRequest[];
  /** Every span received so far, in arrival order. */
  spans(): ReceivedSpan[];
  /** Resolves once `predicate` holds for the spans received (checked on each request), or rejects after `timeoutMs`. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface Reader {
  pos: number;
  isAtEnd(): boolean;
  readTag(): { fieldNumber: number; wireType: number };
  readVarint(): number;
  readBytes(): Uint8Array;
  readString(): string;
  skip(wireType: number): void;
}

const require = createRequire(import.meta.url);
const { ProtobufReader } = require("@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js") as { ProtobufReader: new (buf: Uint8Array) => Reader };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Each field of a message: (field number, wire type, reader positioned on its value). */
function fields(bytes: Uint8Array, each: (field: number, wireType: number, reader: Reader) => void): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    const before = reader.pos;
    each(fieldNumber, wireType, reader);
    if (reader.pos === before) reader.skip(wireType);
  }
}

function fixed64(reader: Reader, bytes: Uint8Array): Buffer {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset + reader.pos, 8);
  reader.pos += 8;
  return buffer;
}

function anyValue(bytes: Uint8Array): ReceivedValue {
  let value: ReceivedValue = null;
  fields(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 2) value = reader.readString();
    else if (field === 2 && wire === 0) value = reader.readVarint() !== 0;
    else if (field === 3 && wire === 0) {
      const raw = reader.readVarint();
      // int64 as two's complement in ten bytes: the negative numbers.
      value = raw >= 2 ** 63 ? raw - 2 ** 64 : raw;
    } else if (field === 4 && wire === 1) value = fixed64(reader, bytes).readDoubleLE(0);
    else if (field === 5 && wire === 2) {
      const list: ReceivedValue[] = [];
      fields(reader.readBytes(), (f, w, r) => {
        if (f === 1 && w === 2) list.push(anyValue(r.readBytes()));
      });
      value = list;
    } else if (field === 6 && wire === 2) value = keyValues(reader.readBytes(), 1);
    else if (field === 7 && wire === 2) value = hex(reader.readBytes());
  });
  return value;
}

/** One KeyValue message. */
function keyValue(bytes: Uint8Array): [string, ReceivedValue] {
  let key = "";
  let value: ReceivedValue = null;
  fields(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 2) key = reader.readString();
    else if (field === 2 && wire === 2) value = anyValue(reader.readBytes());
  });
  return [key, value];
}

/** The KeyValue entries of a message (its repeated field `field`) as one object. */
function keyValues(bytes: Uint8Array, field: number): Record<string, ReceivedValue> {
  const out: Record<string, ReceivedValue> = {};
  fields(bytes, (f, w, reader) => {
    if (f !== field || w !== 2) return;
    const [key, value] = keyValue(reader.readBytes());
    out[key] = value;
  });
  return out;
}

function protobufSpan(bytes: Uint8Array, resource: Record<string, ReceivedValue>, scope: string): ReceivedSpan {
  const span: ReceivedSpan = { traceId: "", spanId: "", parentSpanId: "", name: "", kind: 0, attributes: {}, status: { code: 0 }, links: [], resource, scope };
  fields(bytes, (field, wire, reader) => {
    if (field === 1 && wire === 2) span.traceId = hex(reader.readBytes());
    else if (field === 2 && wire === 2) span.spanId = hex(reader.readBytes());
    else if (field === 4 && wire === 2) span.parentSpanId = hex(reader.readBytes());
    else if (field === 5 && wire === 2) span.name = reader.readString();
    else if (field === 6 && wire === 0) span.kind = reader.readVarint();
    else if (field === 9 && wire === 2) {
      const [key, value] = keyValue(reader.readBytes());
      span.attributes[key] = value;
    }
    else if (field === 13 && wire === 2) {
      const link = { traceId: "", spanId: "", attributes: {} as Record<string, ReceivedValue> };
      const linkBytes = reader.readBytes();
      fields(linkBytes, (lf, lw, lr) => {
        if (lf === 1 && lw === 2) link.traceId = hex(lr.readBytes());
        else if (lf === 2 && lw === 2) link.spanId = hex(lr.readBytes());
      });
      link.attributes = keyValues(linkBytes, 4);
      span.links.push(link);
    } else if (field === 15 && wire === 2) {
      fields(reader.readBytes(), (sf, sw, sr) => {
        if (sf === 2 && sw === 2) span.status.message = sr.readString();
        else if (sf === 3 && sw === 0) span.status.code = sr.readVarint();
      });
    }
  });
  return span;
}

/** ExportTraceServiceRequest (protobuf) → spans. */
export function decodeProtobufTraces(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  fields(body, (field, wire, reader) => {
    if (field !== 1 || wire !== 2) return;
    const resourceSpans = reader.readBytes();
    let resource: Record<string, ReceivedValue> = {};
    const scopeSpans: Uint8Array[] = [];
    fields(resourceSpans, (rf, rw, rr) => {
      if (rf === 1 && rw === 2) resource = keyValues(rr.readBytes(), 1);
      else if (rf === 2 && rw === 2) scopeSpans.push(rr.readBytes());
    });
    for (const scoped of scopeSpans) {
      let scope = "";
      const raw: Uint8Array[] = [];
      fields(scoped, (sf, sw, sr) => {
        if (sf === 1 && sw === 2) {
          fields(sr.readBytes(), (nf, nw, nr) => {
            if (nf === 1 && nw === 2) scope = nr.readString();
          });
        } else if (sf === 2 && sw === 2) raw.push(sr.readBytes());
      });
      for (const span of raw) spans.push(protobufSpan(span, resource, scope));
    }
  });
  return spans;
}

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
  kvlistValue?: { values?: JsonKeyValue[] };
  bytesValue?: string;
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}

function jsonValue(value: JsonAnyValue | undefined): ReceivedValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  if (value.kvlistValue !== undefined) return jsonAttributes(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return Buffer.from(value.bytesValue, "base64").toString("hex");
  return null;
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, ReceivedValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));
}

/** OTLP/JSON ids are hex strings (the specification); base64 from older encoders is read too. */
function jsonId(id: string | undefined, bytes: number): string {
  if (id === undefined || id === "") return "";
  return /^[0-9a-f]+$/i.test(id) && id.length === bytes * 2 ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex");
}

interface JsonSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number; message?: string };
  links?: Array<{ traceId?: string; spanId?: string; attributes?: JsonKeyValue[] }>;
}

/** ExportTraceServiceRequest (JSON) → spans. */
export function decodeJsonTraces(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as { resourceSpans?: Array<{ resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: Array<{ scope?: { name?: string }; spans?: JsonSpan[] }> }> };
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scoped of resourceSpans.scopeSpans ?? []) {
      for (const span of scoped.spans ?? []) {
        spans.push({
          traceId: jsonId(span.traceId, 16),
          spanId: jsonId(span.spanId, 8),
          parentSpanId: jsonId(span.parentSpanId, 8),
          name: span.name ?? "",
          kind: span.kind ?? 0,
          attributes: jsonAttributes(span.attributes),
          status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
          links: (span.links ?? []).map((link) => ({ traceId: jsonId(link.traceId, 16), spanId: jsonId(link.spanId, 8), attributes: jsonAttributes(link.attributes) })),
          resource,
          scope: scoped.scope?.name ?? "",
        });
      }
    }
  }
  return spans;
}

const open: OtlpReceiver[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((receiver) => receiver.close()));
});

/** Start a receiver on 127.0.0.1 (a free port); closed after the test that started it. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const contentType = String(req.headers["content-type"] ?? "").split(";")[0].trim();
      if (req.method !== "POST" || req.url?.split("?")[0] !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      let spans: ReceivedSpan[];
      try {
        if (contentType === "application/json") spans = decodeJsonTraces(body.toString("utf8"));
        else if (contentType === "application/x-protobuf") spans = decodeProtobufTraces(body);
        else {
          res.writeHead(415).end();
          return;
        }
      } catch (error) {
        res.writeHead(400, { "content-type": "text/plain" }).end(String(error));
        return;
      }
      requests.push({ contentType, headers: req.headers, spans });
      // An empty ExportTraceServiceResponse: {} in JSON, no bytes in protobuf.
      if (contentType === "application/json") res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const all = () => requests.flatMap((request) => request.spans);
  let closed: Promise<void> | undefined;
  const receiver: OtlpReceiver = {
    base,
    url: `${base}/v1/traces`,
    requests,
    spans: all,
    waitFor: (predicate, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(all())) return;
          finish();
          resolve(all());
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`the OTLP receiver did not get the expected spans within ${timeoutMs} ms; it got: ${all().map((span) => span.name).join(", ") || "none"}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      (closed ??= new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      })),
  };
  open.push(receiver);
  return receiver;
}
