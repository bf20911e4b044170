import { readFileSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';

/** An image's intrinsic size, for its `width` and `height` attributes: the page keeps its place while it loads. */
export interface ImageSize {
  width: number;
  height: number;
}

function svgSize(text: string): ImageSize | undefined {
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0] ?? '';
  const attribute = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(tag)?.[1]);
  const [width, height] = [attribute('width'), attribute('height')];
  if (width > 0 && height > 0) return { width, height };
  const box = /\sviewBox="[\d.-]+[\s,]+[\d.-]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(tag);
  return box ? { width: Number(box[1]), height: Number(box[2]) } : undefined;
}

function bitmapSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.length > 24 && bytes.toString('ascii', 1, 4) === 'PNG') return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length > 10 && bytes.toString('ascii', 0, 3) === 'GIF') return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    // JPEG: walk the segments to the frame header (SOF0–SOF15, but not DHT, JPG or DAC).
    for (let at = 2; at + 9 < bytes.length; ) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1];
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      }
      at += 2 + bytes.readUInt16BE(at + 2);
    }
  }
  return undefined;
}

/** The file under `public/` that a site address (`/media/logo.svg`) serves; undefined for an address elsewhere. */
function publicFile(url: string | undefined, publicDir: string): string | undefined {
  if (!url?.startsWith('/') || url.startsWith('//')) return undefined;
  const file = normalize(join(publicDir, decodeURIComponent(url.split(/[?#]/)[0])));
  return file.startsWith(publicDir + sep) ? file : undefined;
}

/**
 * The size of an image the site serves from `public/` (`/media/logo.svg`), read at build time;
 * undefined for an image elsewhere or of a kind not read here (the CSS then keeps its place).
 */
export function localImageSize(url: string | undefined, publicDir = join(process.cwd(), 'public')): ImageSize | undefined {
  const file = publicFile(url, publicDir);
  if (!file) return undefined;
  try {
    const bytes = readFileSync(file);
    return /\.svg$/i.test(file) ? svgSize(bytes.toString('utf8', 0, 4096)) : bitmapSize(bytes);
  } catch {
    return undefined;
  }
}

/** How many bytes the file of an image the site serves from `public/` has, read at build time; undefined for one elsewhere or missing. */
export function localImageBytes(url: string | undefined, publicDir = join(process.cwd(), 'public')): number | undefined {
  const file = publicFile(url, publicDir);
  return file ? statSync(file, { throwIfNoEntry: false })?.size : undefined;
}

/** The images a `data:` address may carry, by file extension: those a browser shows from one. */
const DATA_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * An image the site serves from `public/` as a `data:` address, when its file has at most
 * `maxBytes`: written into the page, it paints without a request of its own (an SVG as text, a
 * bitmap in base64). Undefined for a larger file, one elsewhere, missing, or of another kind.
 */
export function localImageDataUrl(url: string | undefined, maxBytes: number, publicDir = join(process.cwd(), 'public')): string | undefined {
  const file = publicFile(url, publicDir);
  if (!file) return undefined;
  const type = DATA_TYPES[file.split('.').pop()?.toLowerCase() ?? ''];
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  if (!type || size === undefined || size > maxBytes) return undefined;
  const bytes = readFileSync(file);
  return type === 'image/svg+xml' ? `data:${type},${encodeURIComponent(bytes.toString('utf8').trim())}` : `data:${type};base64,${bytes.toString('base64')}`;
}

/**
 * The largest splash written into its page (bytes): below it, the request the splash would make
 * costs the page's largest paint more (one round trip) than its bytes in the page do.
 */
export const INLINE_SPLASH_BYTES = 2048;
