/**
 * The bench's memory figure (bench/tree-memory.ts): a build's processes held at
 * once are summed, so a child process beside the build counts.
 */
import { describe, expect, it } from 'vitest';
import { measure } from '../../bench/measure.ts';

// A parent holding ~150 MiB that starts a child holding ~250 MiB, both alive together for a second.
const PARENT = `
const { spawn } = require('node:child_process');
const held = Buffer.alloc(150 * 1024 * 1024, 1);
const child = spawn(process.execPath, ['-e', "const b = Buffer.alloc(250 * 1024 * 1024, 1); setTimeout(() => console.log(b.length), 1000)"], { stdio: 'inherit' });
child.on('exit', () => console.log('parent', held.length));
`;

describe('bench memory', () => {
  it("sums the tree's resident sets and names its largest process", async () => {
    const measured = await measure(['-e', PARENT], { cwd: process.cwd(), env: process.env });
    expect(measured.log).toContain('parent 157286400');
    expect(measured.largestProcessMiB).toBeGreaterThanOrEqual(250);
    expect(measured.largestProcessMiB).toBeLessThan(400);
    // Both at once: more than the largest process alone.
    expect(measured.peakRssMiB).toBeGreaterThanOrEqual(400);
    expect(measured.peakRssMiB! - measured.largestProcessMiB!).toBeGreaterThanOrEqual(140);
  });
});
