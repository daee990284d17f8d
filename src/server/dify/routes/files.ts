/** POST /v1/files/upload: one file (multipart field `file`) and the `user`, kept for later runs (uploads.ts). */
import type { FastifyInstance } from "fastify";
import { DifyApiError, invalidParam } from "../errors.js";
import { fileNameProblem } from "../../file-names.js";
import { boundaryOf, parseMultipart } from "../../multipart.js";
import { UploadedFiles } from "../uploads.js";
import { userOf } from "../turns.js";

export function difyFileRoutes(api: FastifyInstance, uploads: UploadedFiles, uploadBytes: number): void {
  // Multipart bodies are read whole, up to the upload limit, in this context only.
  api.addContentTypeParser("multipart/form-data", { parseAs: "buffer", bodyLimit: uploadBytes }, (_request, body, done) => done(null, body));

  api.post("/v1/files/upload", async (request, reply) => {
    const boundary = boundaryOf(request.headers["content-type"]);
    if (!Buffer.isBuffer(request.body) || boundary === undefined) throw invalidParam("the upload must be multipart/form-data with a file field and a user field");
    let parts;
    try {
      parts = parseMultipart(request.body, boundary);
    } catch (error) {
      throw invalidParam(`the multipart body is malformed: ${(error as Error).message}`);
    }
    const files = parts.filter((p) => p.name === "file");
    if (files.length === 0) throw new DifyApiError(400, "no_file_uploaded", "Please upload your file (the multipart field file).");
    if (files.length > 1) throw new DifyApiError(400, "too_many_files", "Only one file is allowed.");
    const user = userOf(parts.find((p) => p.name === "user")?.data.toString("utf8"));
    const file = files[0];
    const name = file.filename ?? "";
    if (name === "" || name.length > 255 || /[/\\]/.test(name)) throw new DifyApiError(400, "filename_not_exists_error", "The file needs a name (no path, at most 255 characters).");
    const badName = fileNameProblem(name);
    if (badName) throw invalidParam(`The file's name (the filename of the multipart field \`file\`) ${badName}.`);
    const stored = await uploads.add(request.tenant, user, name, file.contentType ?? "application/octet-stream", file.data);
    void reply.code(201);
    return UploadedFiles.view(stored);
  });
}
