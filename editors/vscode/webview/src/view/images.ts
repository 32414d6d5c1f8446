// Images pasted or dropped into the prompt box: which of the offered files
// are images, and reading one as base64 for an ACP image content block.

import type { ImageAttachment } from "../protocol";

/** IMAGE_TYPES are the image types models read (the extension checks them again). */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** MAX_IMAGE_BYTES bounds one attached image. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** imageFiles returns the image files of a paste or drop (none for plain text). */
export function imageFiles(data: DataTransfer | null | undefined): File[] {
  if (!data) return [];
  const files: File[] = [];
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind !== "file" || !item.type.startsWith("image/")) continue;
    const f = item.getAsFile();
    if (f) files.push(f);
  }
  if (!files.length) for (const f of Array.from(data.files ?? [])) if (f.type.startsWith("image/")) files.push(f);
  return files;
}

/** readImage reads an image file as an attachment; it rejects a type or size the agent cannot take. */
export async function readImage(f: File): Promise<ImageAttachment> {
  const name = f.name || undefined;
  if (!IMAGE_TYPES.has(f.type)) throw new Error(`${name ?? "The image"}: ${f.type} cannot be attached (PNG, JPEG, GIF or WebP only).`);
  if (f.size > MAX_IMAGE_BYTES) throw new Error(`${name ?? "The image"} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
  const bytes = new Uint8Array(await f.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { mimeType: f.type, data: btoa(bin), ...(name ? { name } : {}) };
}
