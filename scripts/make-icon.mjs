// Draws icon.png (512×512, the size Claude Desktop recommends) with pngjs: a globe of meridians and
// parallels on a rounded teal square. Pure arithmetic, so the file is the same on every run.
import { writeFileSync } from "node:fs";
import { PNG } from "pngjs";

const SIZE = 512;
const png = new PNG({ width: SIZE, height: SIZE, colorType: 6 });
const clamp = (v) => Math.max(0, Math.min(1, v));
const ink = (distance, width) => clamp(width / 2 + 0.5 - Math.abs(distance)); // anti-aliased stroke

function roundedSquare(x, y, half, radius) {
  const qx = Math.abs(x) - (half - radius);
  const qy = Math.abs(y) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    const x = px + 0.5 - SIZE / 2;
    const y = py + 0.5 - SIZE / 2;
    const bg = clamp(0.5 - roundedSquare(x, y, 240, 96));
    const t = (px + py) / (2 * SIZE);
    let r = 12 + 20 * t;
    let g = 110 + 60 * t;
    let b = 140 + 50 * t;

    const R = 150;
    const d = Math.hypot(x, y);
    let line = ink(d - R, 14);
    if (d < R) {
      for (const k of [0, 0.55, 1]) {
        // meridians: ellipses x²/(kR)² + y²/R² = 1 (k = 0 is the vertical axis)
        const dist = k === 0 ? Math.abs(x) : (Math.hypot(x / k, y) - R) * k;
        line = Math.max(line, ink(dist, 10));
      }
      for (const lat of [-0.5, 0, 0.5]) line = Math.max(line, ink(y - lat * R, 10)); // parallels
    }
    // a cursor arrow at the lower right: the agent acting on the web
    const ax = x - 120;
    const ay = y - 120;
    const inArrow = ax > 0 && ay > 0 && ay < 2 * ax + 6 && ax < 2 * ay + 6 && ax + ay < 110;
    const arrow = inArrow ? 1 : 0;

    const white = Math.max(line, arrow);
    r += (255 - r) * white;
    g += (255 - g) * white;
    b += (255 - b) * white;
    const i = (py * SIZE + px) * 4;
    png.data[i] = Math.round(r);
    png.data[i + 1] = Math.round(g);
    png.data[i + 2] = Math.round(b);
    png.data[i + 3] = Math.round(255 * bg);
  }
}

const out = new URL("../icon.png", import.meta.url);
writeFileSync(out, PNG.sync.write(png, { colorType: 6 }));
console.log(`wrote ${out.pathname}`);
