// Edit review in VS Code's own diff editor. The left side is the current text
// (a read-only virtual document), the right side the agent's proposal in an
// in-memory writable file system, so the user can change it before
// accepting. Accept / Reject are editor-title buttons shown while the
// context key companion.diffActive is true.

import * as path from "node:path";
import * as vscode from "vscode";
import type { DiffReview, EditProposal } from "../core/editor";

/** URI scheme of the read-only current text (left side). */
export const ORIGINAL_SCHEME = "companion-orig";
/** URI scheme of the editable proposal (right side). */
export const PROPOSAL_SCHEME = "companion-proposal";
/** The context key that shows Accept / Reject. */
export const DIFF_ACTIVE_KEY = "companion.diffActive";

/** ProposalFs is a flat in-memory file system holding proposals while they are reviewed. */
class ProposalFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.files.set(uri.path, { data: Buffer.from(text, "utf8"), mtime: Date.now() });
  }
  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(uri.path);
    return f && Buffer.from(f.data).toString("utf8");
  }
  forget(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: f.mtime, mtime: f.mtime, size: f.data.byteLength };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    // Saving the proposal (Ctrl+S) only updates the proposal, never the real file.
    if (!this.files.has(uri.path)) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(uri.path, { data: content, mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions("proposals cannot be renamed");
  }
}

interface Open {
  left: vscode.Uri;
  right: vscode.Uri;
  decide: (d: "accept" | "reject") => void;
  /** seen is set once its diff tab was seen in a group (its closing then rejects). */
  seen?: boolean;
}

/** DiffReviews opens proposals in diff editors and routes Accept / Reject to them. */
export class DiffReviews implements vscode.Disposable {
  private readonly fs = new ProposalFs();
  private readonly originals = new Map<string, string>();
  private readonly open = new Map<string, Open>(); // by right.toString()
  private readonly disposables: vscode.Disposable[] = [];
  private next = 1;

  constructor() {
    const originals = this.originals;
    this.disposables.push(
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.fs, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, {
        provideTextDocumentContent: (uri) => originals.get(uri.path) ?? "",
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContextKey()),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        this.rejectClosed(e.closed);
        this.updateContextKey();
      }),
      // A group closing with its last tab (a proposal opened beside a file) may report no closed tab.
      vscode.window.tabGroups.onDidChangeTabGroups(() => {
        this.rejectClosed([]);
        this.updateContextKey();
      }),
    );
  }

  /** openDiff shows a proposal and returns its review. */
  async openDiff(p: EditProposal): Promise<DiffReview> {
    const id = this.next++;
    const name = path.basename(p.path);
    const left = vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: `/${id}/${name}` });
    const right = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/${name}` });
    this.originals.set(left.path, p.oldText ?? "");
    this.fs.set(right, p.newText);
    let decided = false;
    let decide!: (d: "accept" | "reject") => void;
    const decision = new Promise<"accept" | "reject">((resolve) => (decide = (d) => ((decided = true), resolve(d))));
    this.open.set(right.toString(), { left, right, decide });
    try {
      // preserveFocus: a proposal never takes the keyboard from a user typing
      // elsewhere (the next prompt, a file); the card's Review button goes there.
      // Beside a file the user has open, so the file they may be typing in stays shown.
      await vscode.commands.executeCommand("vscode.diff", left, right, p.title, { preview: false, preserveFocus: true, viewColumn: this.column() });
    } catch (err) {
      // A tab closed while the workbench still attaches its models makes the
      // command fail ("Model is disposed!"); that close is the user's answer.
      this.rejectClosed([]);
      if (!decided) {
        await this.close(left, right);
        throw err;
      }
    }
    this.updateContextKey();
    return {
      decision,
      currentText: () => this.currentText(right),
      show: async () => {
        if (!this.open.has(right.toString())) return;
        const shown = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => isDiffOf(t, right)));
        await vscode.commands.executeCommand("vscode.diff", left, right, p.title, { preview: false, preserveFocus: false, viewColumn: shown?.viewColumn });
        this.updateContextKey();
      },
      close: () => this.close(left, right),
    };
  }

  /** showChange opens a diff of a file's text before the last turn (left, read-only) against the file itself. */
  async showChange(file: string, oldText: string): Promise<void> {
    const left = vscode.Uri.from({ scheme: ORIGINAL_SCHEME, path: `/change-${this.next++}/${path.basename(file)}` });
    this.originals.set(left.path, oldText);
    await vscode.commands.executeCommand("vscode.diff", left, vscode.Uri.file(file), `${path.basename(file)} (changed this turn)`, { preview: true });
  }

  /**
   * column is where a new proposal opens: beside the active editor when that
   * is a file of the user's (typing in it must go on), else the active group.
   */
  private column(): vscode.ViewColumn | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme === ORIGINAL_SCHEME || doc.uri.scheme === PROPOSAL_SCHEME) return undefined;
    return vscode.ViewColumn.Beside;
  }

  /** decideActive answers the review in the active diff editor (or the only one open); false when there is none. */
  decideActive(d: "accept" | "reject"): boolean {
    const o = this.active() ?? (this.open.size === 1 ? [...this.open.values()][0] : undefined);
    if (!o) return false;
    o.decide(d);
    return true;
  }

  /** count is the number of open reviews (tests). */
  get count(): number {
    return this.open.size;
  }

  /**
   * rejectClosed treats a review whose diff tab the user closed as
   * rejected: a closed tab, or a review whose tab was shown and is in no
   * group any more.
   */
  private rejectClosed(closed: readonly vscode.Tab[]): void {
    for (const tab of closed) {
      if (!(tab.input instanceof vscode.TabInputTextDiff)) continue;
      this.open.get(tab.input.modified.toString())?.decide("reject");
    }
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    for (const o of this.open.values()) {
      const shown = tabs.some((t) => isDiffOf(t, o.right));
      if (shown) o.seen = true;
      else if (o.seen) o.decide("reject");
    }
  }

  private currentText(right: vscode.Uri): string {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === right.toString());
    return doc?.getText() ?? this.fs.text(right) ?? "";
  }

  private async close(left: vscode.Uri, right: vscode.Uri): Promise<void> {
    this.open.delete(right.toString());
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === right.toString());
    // Saving into the in-memory fs first keeps VS Code from asking "save changes?".
    if (doc?.isDirty) await doc.save();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => isDiffOf(t, right));
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    this.fs.forget(right);
    this.originals.delete(left.path);
    this.updateContextKey();
  }

  private active(): Open | undefined {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    if (tab?.input instanceof vscode.TabInputTextDiff) return this.open.get(tab.input.modified.toString());
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri ? this.open.get(uri.toString()) : undefined;
  }

  private updateContextKey(): void {
    void vscode.commands.executeCommand("setContext", DIFF_ACTIVE_KEY, this.active() !== undefined);
  }

  dispose(): void {
    for (const o of this.open.values()) o.decide("reject");
    this.open.clear();
    for (const d of this.disposables) d.dispose();
  }
}

function isDiffOf(tab: vscode.Tab, right: vscode.Uri): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === right.toString();
}
