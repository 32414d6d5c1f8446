// Links in rendered markdown that point at workspace files. Pure.

/**
 * linkLocation maps a link in rendered markdown to a file location when it
 * points into the workspace (file:// URI, absolute or relative path, with an
 * optional #L12 or :12 line); web links return null and open normally.
 */
export function linkLocation(href: string, cwd: string): { path: string; line: number | null } | null {
  if (/^(https?|mailto|vscode|command):/i.test(href) || href.startsWith("#")) return null;
  let rest = href;
  if (/^file:\/\//i.test(rest)) rest = decodeURIComponent(rest.replace(/^file:\/\//i, ""));
  else if (/^[a-z][a-z0-9+.-]*:/i.test(rest)) return null;
  const m = /^(.*?)(?:#L(\d+)|:(\d+))?$/.exec(rest);
  if (!m || !m[1]) return null;
  const path = m[1].startsWith("/") ? m[1] : `${cwd.replace(/\/$/, "")}/${m[1].replace(/^\.\//, "")}`;
  const line = m[2] ?? m[3];
  return { path, line: line ? Number(line) : null };
}
