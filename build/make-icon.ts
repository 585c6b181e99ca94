/**
 * Draws the app icon, build/icon.png (512x512): a page with lines of text on an indigo tile.
 * electron-builder derives the macOS .icns, the Windows .ico and the Linux icon set from it.
 * Run: node --import tsx build/make-icon.ts
 *
 * Hand-rolled (PNG is zlib-compressed rows) because no image tool is a dependency; the
 * shapes are few enough to rasterize with 4x4 supersampling.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
type Rgba = [number, number, number, number];

function inRoundedRect(x: number, y: number, left: number, top: number, right: number, bottom: number, radius: number): boolean {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** The colour at one sample point, top layer first. */
function sample(x: number, y: number): Rgba {
  const fold = 64;
  const page = { left: 148, top: 104, right: 364, bottom: 408 };
  const inPage = inRoundedRect(x, y, page.left, page.top, page.right, page.bottom, 18) && x - page.right + fold <= y - page.top;
  const inFold = x > page.right - fold && y < page.top + fold && x - (page.right - fold) <= y - page.top + 0.5;
  if (inFold && x - (page.right - fold) > y - page.top - fold) return [199, 210, 254, 255];
  if (inPage) {
    const lines = [
      { y: 214, right: 320 },
      { y: 262, right: 320 },
      { y: 310, right: 320 },
      { y: 358, right: 262 },
    ];
    for (const line of lines) {
      if (inRoundedRect(x, y, 192, line.y - 10, line.right, line.y + 10, 10)) return [129, 140, 248, 255];
    }
    return [255, 255, 255, 255];
  }
  if (inRoundedRect(x, y, 24, 24, SIZE - 24, SIZE - 24, 108)) {
    const t = y / SIZE; // vertical gradient, indigo to blue
    return [Math.round(79 + (37 - 79) * t), Math.round(70 + (99 - 70) * t), Math.round(229 + (235 - 229) * t), 255];
  }
  return [0, 0, 0, 0];
}

function pixels(): Buffer {
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  const grid = 4;
  for (let py = 0; py < SIZE; py++) {
    const rowStart = py * (SIZE * 4 + 1);
    rows[rowStart] = 0; // filter: none
    for (let px = 0; px < SIZE; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const [r, g, b, a] = sample(px + (sx + 0.5) / grid, py + (sy + 0.5) / grid);
          sum[0]! += r * a;
          sum[1]! += g * a;
          sum[2]! += b * a;
          sum[3]! += a;
        }
      }
      const alpha = sum[3]!;
      const offset = rowStart + 1 + px * 4;
      rows[offset] = alpha ? Math.round(sum[0]! / alpha) : 0;
      rows[offset + 1] = alpha ? Math.round(sum[1]! / alpha) : 0;
      rows[offset + 2] = alpha ? Math.round(sum[2]! / alpha) : 0;
      rows[offset + 3] = Math.round(alpha / (grid * grid));
    }
  }
  return rows;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(pixels(), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`build/icon.png: ${SIZE}x${SIZE}, ${png.length} bytes`);
