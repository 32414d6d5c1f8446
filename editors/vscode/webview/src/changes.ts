// "Changed this turn": the files the last turn edited, reviewed as one
// change. After a live turn that edited files the list shows above the
// prompt box and stays (also when the view is hidden and shown) until the
// user kept or reverted every file, or dismissed it; a new turn replaces it.
// Each file offers its diff (what the turn started from against the file
// now), Keep and Revert; the list offers Keep all and Revert all. Pure (no DOM).

import type { ViewState } from "./model";

/** FileChange is one file the turn changed. */
export interface FileChange {
  path: string;
  /** The text before the turn's first edit of the file; null when the turn created it. */
  oldText: string | null;
  /** The text after the turn's last edit. */
  newText: string;
  /** decided is what the user chose, when they did. */
  decided?: "kept" | "reverted";
}

/** TurnChanges is the list's state in the model. */
export interface TurnChanges {
  /** since is the id of the turn's user message (the turn's items follow it); null: the turn is all there is. */
  since: string | null;
  decided: Record<string, "kept" | "reverted">;
}

/** turnChanges lists the files the turn state.changes names edited, in the order first edited. */
export function turnChanges(state: ViewState): FileChange[] {
  const c = state.changes;
  if (!c) return [];
  const start = c.since === null ? -1 : state.items.findIndex((it) => it.id === c.since);
  if (c.since !== null && start < 0) return [];
  const byPath = new Map<string, FileChange>();
  for (const it of state.items.slice(start + 1)) {
    if (it.kind !== "tool" || it.call.status !== "completed") continue;
    for (const d of it.call.content) {
      if (d.type !== "diff") continue;
      const seen = byPath.get(d.path);
      if (seen) seen.newText = d.newText;
      else byPath.set(d.path, { path: d.path, oldText: d.oldText ?? null, newText: d.newText });
    }
  }
  const out = [...byPath.values()].filter((f) => f.oldText !== f.newText);
  for (const f of out) f.decided = c.decided[f.path];
  return out;
}

/**
 * openChanges starts the list for the turn that just ended live, when it
 * edited a file (called on the turn's end; a replay never opens it).
 */
export function openChanges(state: ViewState): void {
  let since: string | null = null;
  for (let i = state.items.length - 1; i >= 0 && since === null; i--) if (state.items[i].kind === "user") since = state.items[i].id;
  state.changes = { since, decided: {} };
  if (turnChanges(state).length === 0) state.changes = null;
}

/** decideChange records the user's choice for path (all files when path is null); the list closes once all are decided. */
export function decideChange(state: ViewState, path: string | null, d: "kept" | "reverted"): FileChange[] {
  const files = turnChanges(state).filter((f) => !f.decided && (path === null || f.path === path));
  if (!state.changes) return [];
  for (const f of files) state.changes.decided[f.path] = d;
  if (turnChanges(state).every((f) => f.decided)) state.changes = null;
  state.chrome++;
  return files;
}

/** dismissChanges closes the list without deciding (the files stay as the turn left them). */
export function dismissChanges(state: ViewState): void {
  state.changes = null;
  state.chrome++;
}
