// Sanitizing rendered markdown before it is put into the page.
//
// The webview's CSP forbids inline styles and remote images; markup that
// breaks them would only produce console errors, so it is neutralized here:
// no style attributes or <style>, and images keep only data: URIs.

import DOMPurify from "dompurify";

const purify = DOMPurify(window);

purify.addHook("afterSanitizeAttributes", (node) => {
  if (node instanceof HTMLImageElement) {
    const src = node.getAttribute("src") ?? "";
    if (!src.startsWith("data:image/")) node.removeAttribute("src");
    node.removeAttribute("srcset");
  }
  if (node instanceof HTMLAnchorElement && node.hasAttribute("href")) {
    node.setAttribute("title", node.getAttribute("href") ?? "");
  }
});

/** sanitizeToFragment returns a safe DOM fragment for the HTML. */
export function sanitizeToFragment(html: string): DocumentFragment {
  return purify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe"],
    FORBID_ATTR: ["style"],
  }) as DocumentFragment;
}
