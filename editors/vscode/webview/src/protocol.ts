// The extension ↔ webview protocol, shared with the extension host.
// Type-only: nothing of it ends up in the bundle.
export type { FileMention, FromWebview, ImageAttachment, SessionSummary, ToWebview } from "../../src/webviewProtocol";
