// Stands in for the VS Code webview host: acquireVsCodeApi records what the
// UI posts and keeps setState in sessionStorage (so it survives a reload,
// like VS Code's state survives hide / show); __deliver plays messages from
// the extension. CSP violations are collected for the tests to assert on.
(() => {
  window.__posted = [];
  window.__cspViolations = [];
  window.__saves = 0;
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
  });
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error("acquireVsCodeApi may only be called once");
    acquired = true;
    return {
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => {
        const s = sessionStorage.getItem("vscode-state");
        return s ? JSON.parse(s) : undefined;
      },
      setState: (s) => {
        sessionStorage.setItem("vscode-state", JSON.stringify(s));
        window.__saves++;
        return s;
      },
    };
  };
  window.__deliver = (msgs) => {
    for (const data of msgs) window.dispatchEvent(new MessageEvent("message", { data }));
  };
})();
