// The status bar item: the agent's state and, when known, the context usage;
// its tooltip adds the session's figures after each turn.

import * as vscode from "vscode";
import type { StatusInfo } from "../core/editor";
import { formatLanguageServers, formatStats } from "../core/stats";

const ICONS: Record<StatusInfo["state"], string> = {
  starting: "$(loading~spin)",
  ready: "$(comment-discussion)",
  restarting: "$(loading~spin)",
  error: "$(error)",
  stopped: "$(circle-slash)",
};

/** StatusBar shows StatusInfo; click opens the chat. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("companion.status", vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = "Companion";
    this.item.command = "companion.openChat";
    this.show({ state: "stopped" });
    this.item.show();
  }

  /** show renders a state. */
  show(s: StatusInfo): void {
    const usage = s.usage && s.usage.size > 0 ? ` · ${formatTokens(s.usage.used)}/${formatTokens(s.usage.size)}` : "";
    this.item.text = `${ICONS[s.state]} Companion: ${s.state}${usage}`;
    this.item.tooltip = statusTooltip(s);
    this.item.backgroundColor = s.state === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** formatTokens writes 12345 as 12.3k. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** statusTooltip is the state, its message, and the session's figures and language servers when known. */
export function statusTooltip(s: StatusInfo): string {
  const lines = [`Companion: ${s.state}`];
  if (s.message) lines.push(s.message);
  if (s.stats) lines.push("", "This session:", formatStats(s.stats));
  const servers = formatLanguageServers(s.stats?.languageServers);
  if (servers) lines.push("", servers);
  return lines.join("\n");
}
