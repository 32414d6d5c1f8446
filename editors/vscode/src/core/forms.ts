// Forms an MCP server asks the user to fill in (ACP elicitation/create,
// form mode). The schema becomes a list of fields; each is asked in turn
// through the editor's pickers and input boxes; dismissing any of them
// cancels the form. Pure apart from the Editor calls, so it is unit-tested.

import type * as acp from "@agentclientprotocol/sdk";
import type { Editor } from "./editor";

/** A choice of a select field: the value sent and what the user sees. */
export interface Choice {
  value: string;
  label: string;
  /** What the choice means (a titled oneOf / anyOf entry's description). */
  description?: string;
}

/** One form field, in the order it is asked. */
export interface FormField {
  name: string;
  /** The prompt: title, then the description. */
  label: string;
  type: "string" | "number" | "integer" | "boolean" | "array";
  required: boolean;
  /** For selects (one or, with type array, many). */
  choices?: Choice[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/** The form answer sent back: accept with content, decline or cancel. */
export type FormAnswer = acp.CreateElicitationResponse;

type Props = Record<string, Record<string, unknown>>;

/**
 * formFields lists a schema's fields: required ones first, as listed, then
 * the rest by name; a choice field's own-words text field (`<name>_other`,
 * see otherOf) right after it.
 */
export function formFields(schema: { properties?: unknown; required?: string[] | null }): FormField[] {
  const props = (schema.properties ?? {}) as Props;
  const listed = schema.required ?? [];
  const required = new Set(listed);
  const names = [...new Set([...listed.filter((n) => n in props), ...Object.keys(props).filter((n) => !required.has(n)).sort()])];
  const fields = names.map((name) => field(name, props[name], required.has(name)));
  const ordered: FormField[] = [];
  for (const f of fields) {
    if (otherOf(fields, f)) continue;
    ordered.push(f);
    const own = fields.find((g) => g.name === `${f.name}_other`);
    if (own && otherOf(fields, own)) ordered.push(own);
  }
  return ordered;
}

/** OTHER is the choice whose answer is the user's own words (ask_user's questions). */
const OTHER = "Other";

/**
 * otherOf returns the choice field a text field `<name>_other` belongs to,
 * when that field offers the choice "Other": the text is asked only when
 * the user picks it.
 */
export function otherOf(fields: FormField[], f: FormField): FormField | undefined {
  if (f.choices || !f.name.endsWith("_other")) return undefined;
  const base = fields.find((g) => g.name === f.name.slice(0, -"_other".length));
  return base?.choices?.some((c) => c.value === OTHER) ? base : undefined;
}

function field(name: string, p: Record<string, unknown>, required: boolean): FormField {
  const type = (["number", "integer", "boolean", "array"].includes(String(p.type)) ? p.type : "string") as FormField["type"];
  const title = typeof p.title === "string" ? p.title : name;
  const label = typeof p.description === "string" ? `${title} (${p.description})` : title;
  const f: FormField = { name, label, type, required, default: p.default };
  if (typeof p.minimum === "number") f.minimum = p.minimum;
  if (typeof p.maximum === "number") f.maximum = p.maximum;
  const choices = choicesOf(type === "array" ? ((p.items ?? {}) as Record<string, unknown>) : p);
  if (choices.length) f.choices = choices;
  return f;
}

/** choicesOf reads enum (with legacy enumNames) and titled oneOf / anyOf. */
function choicesOf(p: Record<string, unknown>): Choice[] {
  const out: Choice[] = [];
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    p.enum.forEach((v, i) => out.push({ value: String(v), label: String(names[i] ?? v) }));
  }
  const titled = (Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : []) as { const?: unknown; title?: string; description?: string }[];
  for (const o of titled) {
    const c: Choice = { value: String(o.const), label: o.title ?? String(o.const) };
    if (typeof o.description === "string" && o.description) c.description = o.description;
    out.push(c);
  }
  return out;
}

/** parseNumber checks typed text against a number field; a string is the error. */
export function parseNumber(f: FormField, text: string): number | string {
  const n = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(n)) return `${f.label}: not a number`;
  if (f.type === "integer" && !Number.isInteger(n)) return `${f.label}: not an integer`;
  if ((f.minimum !== undefined && n < f.minimum) || (f.maximum !== undefined && n > f.maximum)) {
    return `${f.label}: must be between ${f.minimum ?? "-∞"} and ${f.maximum ?? "∞"}`;
  }
  return n;
}

/** askForm puts an elicitation to the user through the editor and builds the answer. */
export async function askForm(editor: Editor, req: acp.CreateElicitationRequest, signal: AbortSignal): Promise<FormAnswer> {
  if (req.mode !== "form") return { action: "decline" };
  const start = await editor.pick(req.message, ["Fill in the form", "Decline"], false, signal);
  if (start === undefined) return { action: "cancel" };
  if (start[0] === 1) return { action: "decline" };
  const content: Record<string, string | number | boolean | string[]> = {};
  const schema = (req as { requestedSchema?: { properties?: unknown; required?: string[] | null } }).requestedSchema ?? {};
  const fields = formFields(schema);
  for (const f of fields) {
    const base = otherOf(fields, f);
    if (base && ![content[base.name]].flat().includes(OTHER)) continue;
    const v = await askField(editor, req.message, f, signal);
    if (v === undefined) return { action: "cancel" };
    if (v !== null) content[f.name] = v;
  }
  return { action: "accept", content };
}

/** askField asks one field: undefined when dismissed, null when an optional field is left empty. */
async function askField(editor: Editor, title: string, f: FormField, signal: AbortSignal): Promise<string | number | boolean | string[] | null | undefined> {
  const label = f.required ? f.label : `${f.label} (optional)`;
  if (f.type === "boolean" || f.choices) {
    const labels = f.type === "boolean" ? ["Yes", "No"] : f.choices!.map((c) => (c.description ? `${c.label} — ${c.description}` : c.label));
    const many = f.type === "array";
    const picked = await editor.pick(`${title} — ${label}`, labels, many, signal);
    if (picked === undefined) return undefined;
    if (f.type === "boolean") return picked[0] === 0;
    const values = picked.map((i) => f.choices![i].value);
    if (many) return values.length || f.required ? values : null;
    return values[0];
  }
  const value = f.default === undefined ? "" : String(f.default);
  const text = await editor.input(`${title} — ${label}`, value, (t) => validate(f, t), signal);
  if (text === undefined) return undefined;
  if (text === "" && !f.required) return null;
  return f.type === "number" || f.type === "integer" ? (parseNumber(f, text) as number) : text;
}

function validate(f: FormField, text: string): string | undefined {
  if (text === "") return f.required ? `${f.label} is required` : undefined;
  if (f.type === "number" || f.type === "integer") {
    const n = parseNumber(f, text);
    return typeof n === "string" ? n : undefined;
  }
  return undefined;
}
