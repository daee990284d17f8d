/**
 * multipart/form-data bodies (Dify's file upload, RAGFlow's agent upload), read from a body
 * Fastify already bounded by size. Only what an upload needs: each part's field name, file name,
 * content type and bytes.
 */
export interface FormPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
}

/** The boundary of a multipart/form-data content type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The parts of a body; throws naming what is malformed. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error("the body has no part delimited by the content type's boundary");
  for (;;) {
    at += delimiter.length;
    // "--" after a delimiter ends the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
    if (body[at] === 0x0d && body[at + 1] === 0x0a) at += 2;
    const headerEnd = body.indexOf("\r\n\r\n", at);
    if (headerEnd < 0) throw new Error(`part ${parts.length + 1} has no end of headers`);
    const headers = body.subarray(at, headerEnd).toString("utf8").split("\r\n");
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new Error(`part ${parts.length + 1} is not closed by the boundary`);
    let name: string | undefined;
    let filename: string | undefined;
    let contentType: string | undefined;
    for (const line of headers) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === "content-disposition") {
        name = /\bname="([^"]*)"/i.exec(value)?.[1];
        filename = /\bfilename="([^"]*)"/i.exec(value)?.[1];
      } else if (key === "content-type") contentType = value;
    }
    if (name === undefined) throw new Error(`part ${parts.length + 1} has no field name (Content-Disposition: form-data; name="…")`);
    parts.push({ name, filename, contentType, data: body.subarray(headerEnd + 4, next) });
    at = next + 2;
  }
}
