// Workspace trust and the approval mode a session may start in.

/** Modes that approve changes without asking; never in an untrusted workspace. */
const APPROVING_MODES = new Set(["auto_edit", "yolo"]);

/**
 * startMode is the approval mode a new session starts in: the setting,
 * except that an untrusted workspace never starts in a mode that approves
 * changes without asking (it gets "default", and the reason is returned to
 * show the user).
 */
export function startMode(setting: string, trusted: boolean): { mode: string; refused?: string } {
  const mode = setting || "default";
  if (!trusted && APPROVING_MODES.has(mode)) {
    return { mode: "default", refused: `approval mode ${mode} is not used in an untrusted workspace; trust the workspace to use it` };
  }
  return { mode };
}
