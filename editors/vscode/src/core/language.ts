// companion's `_companion/lsp` extension request (agent → client): one LSP
// request about one file, answered by VS Code's own language features
// instead of a second language server started by companion. The extension
// offers it with `clientCapabilities._meta.companion.lsp`. An answer is
// `{ available: false }` when VS Code has no language features for the file
// (companion then asks its own server), else `{ available: true, result }`
// with `result` shaped as a language server answers the method.

/** LANGUAGE_METHOD is companion's extension request for the editor's language features. */
export const LANGUAGE_METHOD = "_companion/lsp";

/** The LSP methods companion asks, and what each needs. */
export const LANGUAGE_METHODS = [
  "textDocument/definition",
  "textDocument/references",
  "textDocument/hover",
  "textDocument/documentSymbol",
  "workspace/symbol",
  "textDocument/rename",
  "textDocument/diagnostic",
] as const;

/** One of LANGUAGE_METHODS. */
export type LanguageMethod = (typeof LANGUAGE_METHODS)[number];

/** A 0-based LSP position (character in UTF-16 code units, as VS Code counts). */
export interface LspPosition {
  line: number;
  character: number;
}

/** A request as companion sends it. */
export interface LanguageRequest {
  sessionId: string;
  /** The absolute path of the file asked about. */
  path: string;
  method: LanguageMethod;
  /** The LSP params: a position for most, a query for workspace/symbol, newName for rename. */
  position?: LspPosition;
  query?: string;
  newName?: string;
}

/** The answer sent back. */
export interface LanguageAnswer {
  available: boolean;
  result?: unknown;
}

/** LanguageFeatures is what the editor does for each request (src/vscode implements it with VS Code's commands). */
export interface LanguageFeatures {
  /** answer runs req with the editor's providers; available false when it has none for the file. */
  answer(req: LanguageRequest): Promise<LanguageAnswer>;
}

/**
 * parseLanguageRequest reads the wire params
 * `{ sessionId, path, method, params }` into a LanguageRequest, or throws
 * an Error naming what is wrong (answered as invalid params).
 */
export function parseLanguageRequest(raw: unknown): LanguageRequest {
  const p = (raw ?? {}) as { sessionId?: unknown; path?: unknown; method?: unknown; params?: unknown };
  if (typeof p.path !== "string" || !p.path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(p.path)) {
    throw new Error("path must be an absolute path");
  }
  if (typeof p.method !== "string" || !(LANGUAGE_METHODS as readonly string[]).includes(p.method)) {
    throw new Error(`method must be one of ${LANGUAGE_METHODS.join(", ")}`);
  }
  const params = (p.params ?? {}) as { position?: LspPosition; query?: unknown; newName?: unknown };
  const req: LanguageRequest = { sessionId: String(p.sessionId ?? ""), path: p.path, method: p.method as LanguageMethod };
  const pos = params.position;
  if (pos && Number.isInteger(pos.line) && Number.isInteger(pos.character) && pos.line >= 0 && pos.character >= 0) {
    req.position = { line: pos.line, character: pos.character };
  }
  if (typeof params.query === "string") req.query = params.query;
  if (typeof params.newName === "string") req.newName = params.newName;
  const needsPosition = ["textDocument/definition", "textDocument/references", "textDocument/hover", "textDocument/rename"];
  if (needsPosition.includes(req.method) && !req.position) throw new Error(`${req.method} needs params.position`);
  if (req.method === "textDocument/rename" && !req.newName) throw new Error("textDocument/rename needs params.newName");
  return req;
}


// ---- VS Code's answers in LSP's shapes ----
// The converters take VS Code's objects structurally (they are plain data
// plus a Uri with toString), so they run under plain Node in the unit tests.

/** A position or range as VS Code has them. */
interface PosLike {
  line: number;
  character: number;
}
interface RangeLike {
  start: PosLike;
  end: PosLike;
}
interface UriLike {
  toString(): string;
}

/** An LSP Range. */
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** An LSP Location. */
export interface LspLocation {
  uri: string;
  range: LspRange;
}

/** lspRange copies a VS Code range. */
export function lspRange(r: RangeLike): LspRange {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

/** lspLocation converts a vscode.Location or vscode.LocationLink (its target's selection range). */
export function lspLocation(l: { uri?: UriLike; range?: RangeLike; targetUri?: UriLike; targetRange?: RangeLike; targetSelectionRange?: RangeLike }): LspLocation | undefined {
  if (l.targetUri) {
    const r = l.targetSelectionRange ?? l.targetRange;
    return r ? { uri: l.targetUri.toString(), range: lspRange(r) } : undefined;
  }
  return l.uri && l.range ? { uri: l.uri.toString(), range: lspRange(l.range) } : undefined;
}

/** lspLocations converts a provider's list, dropping what has no place. */
export function lspLocations(list: readonly Parameters<typeof lspLocation>[0][] | undefined): LspLocation[] {
  return (list ?? []).map(lspLocation).filter((l): l is LspLocation => !!l);
}

/** A hover's contents as VS Code has them: MarkdownStrings, or MarkedStrings (string | {language, value}). */
type HoverPart = string | { value: string; language?: string };

/** lspHover joins VS Code's hovers into one LSP Hover (markdown); null when they say nothing. */
export function lspHover(hovers: readonly { contents: readonly HoverPart[] }[] | undefined): { contents: { kind: "markdown"; value: string } } | null {
  const parts: string[] = [];
  for (const h of hovers ?? []) {
    for (const c of h.contents) {
      const text = typeof c === "string" ? c : c.language ? "```" + c.language + "\n" + c.value + "\n```" : c.value;
      if (text.trim()) parts.push(text.trim());
    }
  }
  return parts.length ? { contents: { kind: "markdown", value: parts.join("\n\n") } } : null;
}

/** A symbol as VS Code's document symbol provider answers: a DocumentSymbol, or a SymbolInformation. */
export interface SymbolLike {
  name: string;
  kind: number;
  detail?: string;
  range?: RangeLike;
  selectionRange?: RangeLike;
  children?: readonly SymbolLike[];
  location?: { uri: UriLike; range: RangeLike };
  containerName?: string;
}

/**
 * lspSymbol converts one symbol. VS Code's SymbolKind counts from 0 (File),
 * LSP's from 1, so the kind is one more.
 */
export function lspSymbol(s: SymbolLike): Record<string, unknown> {
  if (s.location) {
    return { name: s.name, kind: s.kind + 1, location: { uri: s.location.uri.toString(), range: lspRange(s.location.range) }, containerName: s.containerName || undefined };
  }
  const range = s.range ? lspRange(s.range) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return {
    name: s.name,
    kind: s.kind + 1,
    detail: s.detail || undefined,
    range,
    selectionRange: s.selectionRange ? lspRange(s.selectionRange) : range,
    children: s.children?.length ? s.children.map(lspSymbol) : undefined,
  };
}

/** lspWorkspaceEdit converts a rename's vscode.WorkspaceEdit (its entries) to LSP `changes` by URI. */
export function lspWorkspaceEdit(entries: readonly [UriLike, readonly { range: RangeLike; newText: string }[]][]): { changes: Record<string, { range: LspRange; newText: string }[]> } {
  const changes: Record<string, { range: LspRange; newText: string }[]> = {};
  for (const [uri, edits] of entries) {
    const key = uri.toString();
    changes[key] = [...(changes[key] ?? []), ...edits.map((e) => ({ range: lspRange(e.range), newText: e.newText }))];
  }
  return { changes };
}

/** A diagnostic as VS Code has it (severity 0 Error … 3 Hint; code a value or {value, target}). */
export interface DiagnosticLike {
  range: RangeLike;
  severity: number;
  message: string;
  source?: string;
  code?: string | number | { value: string | number };
}

/** lspDiagnostics makes a full LSP diagnostic report (severity 1 Error … 4 Hint). */
export function lspDiagnostics(list: readonly DiagnosticLike[]): { kind: "full"; items: Record<string, unknown>[] } {
  return {
    kind: "full",
    items: list.map((d) => ({
      range: lspRange(d.range),
      severity: d.severity + 1,
      message: d.message,
      source: d.source || undefined,
      code: typeof d.code === "object" ? d.code.value : d.code,
    })),
  };
}
