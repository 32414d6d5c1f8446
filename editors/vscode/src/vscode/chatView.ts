// The sidebar chat: a WebviewView whose page is the bundle built by
// webview/ (media/webview.js, media/webview.css). Messages follow
// src/webviewProtocol.ts; the controller replays its state on every `ready`,
// so the view needs no retained context when hidden.

import * as vscode from "vscode";
import { webviewHtml } from "../core/html";
import type { FromWebview, ToWebview } from "../webviewProtocol";

/** The view id contributed in package.json. */
export const CHAT_VIEW_ID = "companion.chat";

/** ChatViewProvider hosts the chat webview and relays its messages. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /** loaded is set once the page has posted `ready`. */
  private loaded = false;
  /** queued are messages for the page that wait until it has loaded. */
  private queued: ToWebview[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (m: FromWebview) => void,
    private readonly mark: (name: string) => void = () => {},
    /** resolved runs once the view's page is set (the extension then loads its heavy half). */
    private readonly resolved: () => void = () => {},
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.mark("view resolved");
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = webviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, "webview.js")).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, "webview.css")).toString(),
    });
    this.loaded = false;
    view.webview.onDidReceiveMessage((m: FromWebview) => {
      this.onMessage(m);
      if (m.type === "ready") this.flush();
    });
    view.onDidDispose(() => {
      if (this.view !== view) return;
      this.view = undefined;
      this.loaded = false;
    });
    this.resolved();
  }

  /** post sends a message when the view exists; otherwise the next `ready` replays the state. */
  post(m: ToWebview): void {
    void this.view?.webview.postMessage(m);
  }

  /**
   * postWhenLoaded sends a message that is not part of the replayed state
   * (text for the prompt box): now when the page is up, else once it has
   * loaded and its state was replayed.
   */
  postWhenLoaded(m: ToWebview): void {
    this.queued.push(m);
    if (this.loaded) this.flush();
  }

  private flush(): void {
    this.loaded = true;
    const view = this.view;
    if (!view) return;
    for (const m of this.queued.splice(0)) void view.webview.postMessage(m);
  }

  /** visible tells whether the chat is on screen. */
  get visible(): boolean {
    return !!this.view?.visible;
  }
}
