// The ACP trace (setting companion.trace): every JSON-RPC message between the
// extension and the agent, one line each with its direction, method, id and
// size; "verbose" adds the message itself as JSON, with the values of
// secret-looking keys (apiKey, token, authorization, password…) replaced.
// Pure apart from the stream wrapper, so the rules are unit-tested.

import type * as acp from "@agentclientprotocol/sdk";

/** TraceLevel is the companion.trace setting. */
export type TraceLevel = "off" | "messages" | "verbose";

/** Tracer receives the trace lines (an output channel). */
export interface Tracer {
  level: Exclude<TraceLevel, "off">;
  write(line: string): void;
}

/** traceLevel reads the setting's value, anything unknown being "off". */
export function traceLevel(v: unknown): TraceLevel {
  return v === "messages" || v === "verbose" ? v : "off";
}

/** SECRET_KEY matches the names of keys whose values are never traced. */
const SECRET_KEY = /(api[-_]?key|token|secret|password|passwd|authorization|auth[-_]?header|credential|cookie|private[-_]?key)/i;

/** REDACTED stands in for a secret value. */
export const REDACTED = "[redacted]";

/**
 * redact returns a copy of v with the values of secret-looking keys
 * replaced (at any depth, in objects and arrays), and environment entries
 * such as {name: "GEMINI_API_KEY", value: "…"} too.
 */
export function redact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redact);
  if (!v || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  const secretEntry = typeof o.name === "string" && SECRET_KEY.test(o.name) && "value" in o;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(o)) {
    if ((SECRET_KEY.test(k) && val !== null && typeof val !== "boolean") || (secretEntry && k === "value")) out[k] = REDACTED;
    else out[k] = redact(val);
  }
  return out;
}

/** Direction of a message: "→" to the agent, "←" from it. */
export type Direction = "send" | "recv";

/**
 * Correlator remembers the method of each request in flight (both ways), so
 * a response line can say what it answers.
 */
export class Correlator {
  private readonly pending = new Map<string, string>();

  /** describe returns the line for one message (and the JSON when verbose). */
  describe(dir: Direction, msg: acp.AnyMessage, level: Tracer["level"], at = new Date()): string {
    const m = msg as { id?: string | number | null; method?: string; error?: { code?: number; message?: string } };
    const json = JSON.stringify(msg);
    const size = Buffer.byteLength(json, "utf8");
    const arrow = dir === "send" ? "→" : "←";
    let what: string;
    if (typeof m.method === "string") {
      const hasId = m.id !== undefined && m.id !== null;
      if (hasId) this.pending.set(`${dir}:${m.id}`, m.method);
      what = hasId ? `request ${m.method} id=${m.id}` : `notification ${m.method}`;
    } else {
      // A response goes the other way from its request.
      const key = `${dir === "send" ? "recv" : "send"}:${m.id}`;
      const method = this.pending.get(key) ?? "?";
      this.pending.delete(key);
      what = m.error ? `error ${method} id=${m.id} code=${m.error.code}` : `response ${method} id=${m.id}`;
    }
    const line = `${at.toISOString()} ${arrow} ${what} (${size} bytes)`;
    if (level !== "verbose") return line;
    return `${line}\n${JSON.stringify(redact(msg))}`;
  }
}

/** traceStream wraps an ACP stream so each message is written to the tracer as it passes. */
export function traceStream(stream: acp.Stream, tracer: Tracer): acp.Stream {
  const c = new Correlator();
  const write = (dir: Direction, msg: acp.AnyMessage) => {
    try {
      tracer.write(c.describe(dir, msg, tracer.level));
    } catch {
      // Tracing never breaks the connection.
    }
  };
  const incoming = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(msg, ctl) {
      write("recv", msg);
      ctl.enqueue(msg);
    },
  });
  const outgoing = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(msg, ctl) {
      write("send", msg);
      ctl.enqueue(msg);
    },
  });
  void stream.readable.pipeTo(incoming.writable).catch(() => {});
  void outgoing.readable.pipeTo(stream.writable).catch(() => {});
  return { readable: incoming.readable, writable: outgoing.writable };
}
