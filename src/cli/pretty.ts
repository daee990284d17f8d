/**
 * The `pretty` event printer: live per-node progress with elapsed times, the streamed message
 * text, and what a paused run waits for.
 */
import type { CanvasEvent } from "../engine/events.js";

interface PrettyOptions {
  color: boolean;
  /** How to answer a pause, without the input flag, e.g. "canvasflow run x.json --session s.json". */
  resumeHint?: string;
}

function formatElapsed(seconds: number): string {
  if (seconds < 1) return `${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 1)} ms`;
  return `${seconds.toFixed(2)} s`;
}

/** A value as one line of JSON (its text when it is one). */
function showValue(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export class PrettyPrinter {
  private atLineStart = true;
  private inMessage = false;
  /** The text of the message being shown, and of the last one completed. */
  private messageText = "";
  private lastMessage = "";

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly options: PrettyOptions,
  ) {}

  private paint(code: string, text: string): string {
    return this.options.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  private line(text: string): void {
    if (!this.atLineStart) this.out.write("\n");
    this.out.write(`${text}\n`);
    this.atLineStart = true;
    this.inMessage = false;
  }

  private text(text: string): void {
    if (text.length === 0) return;
    this.out.write(text);
    this.atLineStart = text.endsWith("\n");
  }

  prologue(text: string): void {
    if (text) this.line(this.paint("36", text));
  }

  print(event: CanvasEvent): void {
    switch (event.event) {
      case "workflow_started":
        break;
      case "node_started":
        break;
      case "node_progress": {
        // A step's progress as it goes (an ingestion pipeline's trace); its errors show with its ✗.
        const d = event.data;
        if (d.progress >= 0) this.line(this.paint("2", `  ${d.component_id} ${Math.round(d.progress * 100)}% ${d.message}`));
        break;
      }
      case "node_finished": {
        const d = event.data;
        const name = d.component_name === d.component_id ? d.component_id : `${d.component_id} "${d.component_name}"`;
        const mark = d.error ? this.paint("31", "✗") : this.paint("32", "✓");
        const tail = d.error ? this.paint("31", ` ${d.error}`) : "";
        this.line(`${mark} ${name} ${this.paint("2", `(${d.component_type}) ${formatElapsed(d.elapsed_time)}`)}${tail}`);
        break;
      }
      case "message":
        if (!this.inMessage) {
          if (!this.atLineStart) this.out.write("\n");
          this.out.write("\n");
          this.atLineStart = true;
          this.inMessage = true;
        }
        if (event.data.start_to_think) this.text(this.paint("2", "<think>"));
        else if (event.data.end_to_think) this.text(this.paint("2", "</think>"));
        else {
          this.text(event.data.content);
          this.messageText += event.data.content;
        }
        break;
      case "message_end":
        this.lastMessage = this.messageText;
        this.messageText = "";
        if (this.inMessage) {
          if (!this.atLineStart) this.out.write("\n");
          this.out.write("\n");
          this.atLineStart = true;
          this.inMessage = false;
        }
        break;
      case "user_inputs": {
        const { inputs, tips, interrupts } = event.data;
        this.line(this.paint("33", "⏸ waiting for input"));
        // The tips were usually just shown as a message; do not repeat them.
        if (tips && tips !== this.lastMessage) this.line(`  ${tips}`);
        // A component that paused from inside (interrupt()) shows a value: what it asks about.
        for (const pending of interrupts ?? []) this.line(`  ${pending.component_id} asks: ${showValue(pending.value)}`);
        for (const [key, field] of Object.entries(inputs)) {
          const label = field.name && field.name !== key ? ` (${field.name})` : "";
          const options = Array.isArray(field.options) && field.options.length > 0 ? ` one of: ${field.options.join(", ")}` : "";
          const optional = field.optional ? " optional" : "";
          this.line(`  ${key}${label}: ${field.type ?? "line"}${optional}${options}`);
        }
        // An interrupt's answer is the run's `resume` input, usually not a line of text.
        const answer = (interrupts?.length ?? 0) > 0 ? `--inputs '{"resume": VALUE}'` : "--input NAME=VALUE";
        if (this.options.resumeHint) this.line(this.paint("2", `  answer with: ${this.options.resumeHint} ${answer}`));
        break;
      }
      case "workflow_finished": {
        const d = event.data;
        if (d.error) this.line(this.paint("31", `✗ run failed after ${formatElapsed(d.elapsed_time)}: ${d.error}`));
        else this.line(this.paint("2", `finished in ${formatElapsed(d.elapsed_time)}`));
        break;
      }
    }
  }
}
