/**
 * The checks real providers make on the images in a request, on every route, so a test of "the image was
 * made to fit" or "the tool's image reached the model" can fail: a model without image input refuses any
 * image; an image over the model's long side or byte limit (base64 as sent) is refused; a Chat Completions
 * tool message with an image is refused (OpenAI: images only in user messages). Returns the problem, or
 * undefined. `imagesIn` also serves the tests, to read what reached the server.
 */
import { DEFAULT_IMAGE_LIMITS } from '../core/images/imageLimits';
import { imageSize } from '../core/images/imageSize';
import { hashId } from '../core/util/hashId';
import type { FakeModel, FakeRoute } from './types';

export interface FoundImage {
  /** Where it was, as the API's error would say it (`messages.2.content.1`). */
  where: string;
  /** Inside a tool result (a function_call_output, a tool_result, after a functionResponse). */
  inToolResult: boolean;
  mimeType: string;
  base64: string;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function imageProblem(route: FakeRoute, body: Node, model: FakeModel): string | undefined {
  if (route === 'chat') {
    const misplaced = list(body.messages).findIndex((m) => isNode(m) && m.role !== 'user' && Array.isArray(m.content) && m.content.some((p) => isNode(p) && p.type === 'image_url'));
    if (misplaced >= 0) return `Invalid 'messages[${misplaced}]'. Image URLs are only allowed for messages with role 'user'.`;
  }
  const images = imagesIn(route, body);
  if (images.length === 0) return undefined;
  if (!model.imageInput) return `${images[0].where}: the model ${model.id} does not support image input`;
  const maxSide = model.maxImageSide ?? DEFAULT_IMAGE_LIMITS.maxLongSide;
  const maxBytes = model.maxImageBytes ?? DEFAULT_IMAGE_LIMITS.maxBytes;
  for (const image of images) {
    if (image.base64.length > maxBytes) return `${image.where}: image exceeds ${maxBytes} bytes maximum: ${image.base64.length} bytes > ${maxBytes} bytes`;
    const size = imageSize(Buffer.from(image.base64, 'base64'));
    if (!size) return `${image.where}: could not process image`;
    if (Math.max(size.width, size.height) > maxSide) return `${image.where}: image dimensions exceed max allowed size: ${maxSide} pixels (got ${size.width}x${size.height})`;
  }
  return undefined;
}

export function imagesIn(route: FakeRoute, body: Node): FoundImage[] {
  const found: FoundImage[] = [];
  const add = (where: string, url: unknown, inToolResult: boolean, mimeType?: unknown, data?: unknown): void => {
    const match = typeof url === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
    if (match) found.push({ where, inToolResult, mimeType: match[1], base64: match[2] });
    else if (typeof data === 'string') found.push({ where, inToolResult, mimeType: String(mimeType), base64: data });
  };
  if (route === 'chat') {
    list(body.messages).forEach((m, i) => isNode(m) && list(m.content).forEach((p, j) => isNode(p) && p.type === 'image_url' && isNode(p.image_url) && add(`messages.${i}.content.${j}`, p.image_url.url, false)));
  } else if (route === 'responses') {
    list(body.input).forEach((item, i) => {
      if (!isNode(item)) return;
      const parts = item.type === 'function_call_output' ? list(item.output) : list(item.content);
      parts.forEach((p, j) => isNode(p) && p.type === 'input_image' && add(`input.${i}.${item.type === 'function_call_output' ? 'output' : 'content'}.${j}`, p.image_url, item.type === 'function_call_output'));
    });
  } else if (route === 'messages') {
    list(body.messages).forEach((m, i) => isNode(m) && list(m.content).forEach((block, j) => {
      if (!isNode(block)) return;
      const inner = block.type === 'tool_result' ? list(block.content).map((b, k) => [b, `.content.${k}`] as const) : [[block, ''] as const];
      for (const [b, suffix] of inner) if (isNode(b) && b.type === 'image' && isNode(b.source)) add(`messages.${i}.content.${j}${suffix}.image.source.base64`, undefined, block.type === 'tool_result', b.source.media_type, b.source.data);
    }));
  } else {
    list(body.contents).forEach((c, i) => {
      if (!isNode(c)) return;
      let afterResponse = false;
      list(c.parts).forEach((p, j) => {
        if (!isNode(p)) return;
        if (p.functionResponse) afterResponse = true;
        if (isNode(p.inlineData)) add(`contents[${i}].parts[${j}].inline_data`, undefined, afterResponse, p.inlineData.mimeType, p.inlineData.data);
      });
    });
  }
  return found;
}

/**
 * What the fake model "sees" in a request's images, for its default reply: each image's size and the first 12 hex
 * digits of its bytes' SHA-256 (`image 64x32 sha256:0123456789ab`). Deterministic and different for different
 * bytes, so a test can tell which image a description came from.
 */
export function seenImages(route: FakeRoute, body: Node): string[] {
  return imagesIn(route, body).map((image) => {
    const bytes = Buffer.from(image.base64, 'base64');
    const size = imageSize(bytes);
    return `image ${size ? `${size.width}x${size.height}` : 'unreadable'} sha256:${hashId(bytes).slice(0, 12)}`;
  });
}
