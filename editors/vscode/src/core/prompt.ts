// Turning the chat box's text and `@` mentions into ACP content blocks.
// A mentioned text file travels embedded (a `resource` block with its text,
// unsaved changes included) so the agent need not read it again; a binary,
// huge or unreadable file goes as a `resource_link` the agent may open.

import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import type { FileMention, ImageAttachment } from "../webviewProtocol";

/** Files larger than this are linked, not embedded. */
export const MAX_EMBED_BYTES = 256 * 1024;

/** Reads a mentioned file's text: an open document's, or the disk's. */
export type TextSource = (path: string) => string | undefined;

/** buildPrompt makes the session/prompt blocks: the text, one block per mention, then one image block per image. */
export async function buildPrompt(text: string, mentions: FileMention[], openText: TextSource, images: ImageAttachment[] = []): Promise<acp.ContentBlock[]> {
  const blocks: acp.ContentBlock[] = [{ type: "text", text }];
  const seen = new Set<string>();
  for (const m of mentions) {
    if (seen.has(m.uri)) continue;
    seen.add(m.uri);
    blocks.push(await mentionBlock(m, openText));
  }
  for (const img of images) blocks.push(imageBlock(img));
  return blocks;
}

async function mentionBlock(m: FileMention, openText: TextSource): Promise<acp.ContentBlock> {
  const link: acp.ContentBlock = { type: "resource_link", uri: m.uri, name: m.label };
  if (!m.uri.startsWith("file:")) return link;
  const path = fileURLToPath(m.uri);
  const text = openText(path) ?? (await readTextFromDisk(path));
  if (text === undefined) return link;
  return { type: "resource", resource: { uri: m.uri, mimeType: "text/plain", text } };
}

/** readTextFromDisk returns a file's text, or undefined when it is missing, a folder, huge or binary. */
async function readTextFromDisk(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_EMBED_BYTES) return undefined;
    const data = await readFile(path);
    if (data.includes(0)) return undefined; // a NUL byte: binary
    return data.toString("utf8");
  } catch {
    return undefined;
  }
}

/**
 * userMessageUpdates are the user_message_chunk updates that show the
 * prompt in the chat (agents do not echo a live prompt back): the text and
 * a link per mention, never the embedded file contents.
 */
export function userMessageUpdates(text: string, mentions: FileMention[], images: ImageAttachment[] = []): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [{ sessionUpdate: "user_message_chunk", content: { type: "text", text } }];
  for (const img of images) updates.push({ sessionUpdate: "user_message_chunk", content: imageBlock(img) });
  for (const m of mentions) {
    updates.push({ sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: m.uri, name: m.label } });
  }
  return updates;
}

/** rankFiles orders workspace-relative paths for an `@` query: basename hits first, then path hits, then fuzzy. */
export function rankFiles(query: string, paths: string[], limit = 50): string[] {
  const q = query.toLowerCase();
  if (!q) return [...paths].sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, limit);
  const scored: { path: string; score: number }[] = [];
  for (const p of paths) {
    const score = matchScore(q, p.toLowerCase());
    if (score > 0) scored.push({ path: p, score });
  }
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}

function matchScore(q: string, p: string): number {
  const base = p.slice(p.lastIndexOf("/") + 1);
  if (base.startsWith(q)) return 4;
  if (base.includes(q)) return 3;
  if (p.includes(q)) return 2;
  return isSubsequence(q, p) ? 1 : 0;
}

function isSubsequence(q: string, p: string): boolean {
  let i = 0;
  for (let j = 0; j < p.length && i < q.length; j++) if (p[j] === q[i]) i++;
  return i === q.length;
}

/** IMAGE_TYPES are the image types a prompt may carry (what models read). */
export const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** MAX_IMAGE_BYTES bounds one image (its decoded size). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** imageBlock is the ACP image content block of an attachment. */
function imageBlock(img: ImageAttachment): acp.ContentBlock {
  return { type: "image", mimeType: img.mimeType, data: img.data };
}

/** checkImages says why attachments cannot be sent (the agent takes no images, a type or size it cannot take), or undefined. */
export function checkImages(images: ImageAttachment[], agentAcceptsImages: boolean): string | undefined {
  if (!images.length) return undefined;
  if (!agentAcceptsImages) return "The agent does not accept images; remove them to send the text.";
  for (const img of images) {
    const what = img.name ? `${img.name}: ` : "";
    if (!IMAGE_TYPES.has(img.mimeType)) return `${what}${img.mimeType} images cannot be sent (PNG, JPEG, GIF or WebP only).`;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(img.data)) return `${what}the image data is not base64.`;
    if ((img.data.length * 3) / 4 > MAX_IMAGE_BYTES) return `${what}the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`;
  }
  return undefined;
}
