/**
 * The emulator's size knobs: `images` and `kits` set those counts on their
 * own, whatever the scale; the same knobs give the same press room; without
 * them the demo press room is the one it always was.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateWorld } from '../../emulator/demo-data/generate.ts';
import { planFor } from '../../emulator/demo-data/scale.ts';
import { isPublic } from '../../emulator/model/visibility.ts';
import type { World } from '../../emulator/model/types.ts';
import { useEmulator } from '../helpers/emulator.ts';

const NOW = new Date('2026-11-01T09:00:00.000Z');
const root = path.resolve(import.meta.dirname, '../..');

/** What a reader of the Read API sees: public images and published, visible kits. */
function publicCounts(world: World) {
  const at = (item: Parameters<typeof isPublic>[0]) => isPublic(item, NOW);
  return {
    releases: world.pressReleases.length,
    images: world.images.filter(at).length,
    kits: world.mediaKits.filter((k) => at(k) && !k.is_locked && !k.is_password_protected).length,
  };
}

describe('emulator knobs: images and kits', () => {
  it('leaves the demo plan as it was when no knob is given', () => {
    expect(planFor(60)).toMatchObject({ releases: 60, images: 50, kits: 8, clippings: 30 });
    expect(planFor(60, {})).toEqual(planFor(60));
    expect(generateWorld({ seed: 1, scale: 60, now: NOW, images: undefined, kits: undefined })).toEqual(
      generateWorld({ seed: 1, scale: 60, now: NOW }),
    );
  });

  it('makes exactly the images and kits asked for, independent of the scale, and the same world each time', () => {
    const options = { seed: 1, scale: 120, images: 400, kits: 60, now: NOW };
    const world = generateWorld(options);
    expect(publicCounts(world)).toEqual({ releases: 120, images: 400, kits: 60 });
    // The scale still decides the rest: clippings grow with the releases, not with the knobs.
    expect(world.clippings).toHaveLength(planFor(120).clippings);
    expect(generateWorld({ ...options, now: new Date(NOW.getTime()) })).toEqual(world);
    expect(publicCounts(generateWorld({ ...options, images: 12, kits: 4 }))).toEqual({ releases: 120, images: 12, kits: 4 });
  });

  it('produces scale L: 10 000 releases, 5 000 images, 1 000 kits, every id unique', () => {
    const world = generateWorld({ seed: 1, scale: 10_000, images: 5_000, kits: 1_000, now: NOW });
    expect(publicCounts(world)).toEqual({ releases: 10_000, images: 5_000, kits: 1_000 });
    const mediaIds = [...world.images, ...world.documents, ...world.movies, ...world.sounds, ...world.videos].map((m) => m.id);
    expect(new Set(mediaIds).size).toBe(mediaIds.length);
    expect(new Set(world.mediaKits.map((k) => k.id)).size).toBe(world.mediaKits.length);
  });

  it('refuses counts below the least a press room has', () => {
    expect(() => generateWorld({ seed: 1, scale: 60, images: 3, now: NOW })).toThrow(/images must be an integer ≥ 12/);
    expect(() => generateWorld({ seed: 1, scale: 60, kits: 1.5, now: NOW })).toThrow(/kits must be an integer ≥ 4/);
  });
});

describe('emulator knobs over HTTP', () => {
  const emulator = useEmulator({ frozenClock: true, scale: 30, images: 150, kits: 25 });

  it('lists as many images and media kits as asked for', async () => {
    const e = emulator();
    const count = async (route: string) => (await e.json<{ data: unknown[] }>(`${route}?limit=10000`)).body.data.length;
    expect(await count('images')).toBe(150);
    // Plus the locked and the password-protected kit: published, listed, without media.
    expect(await count('media_kits')).toBe(25 + 2);
    expect(await count('press_releases')).toBe(e.store().world.pressReleases.filter((r) => isPublic(r, NOW)).length);
  });
});

describe('emulator CLI knobs', () => {
  const run = async (...args: string[]) =>
    promisify(execFile)(process.execPath, ['emulator/cli.ts', ...args], { cwd: root, timeout: 20_000 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it('documents --images and --kits and refuses a count below the least with one line (exit 2)', async () => {
    const help = await run('--help');
    expect(help.stdout).toMatch(/^\s+--images N\s+\S.{10,}/m);
    expect(help.stdout).toMatch(/^\s+--kits N\s+\S.{10,}/m);
    for (const [args, message] of [
      [['--images', '3'], '--images must be an integer >= 12'],
      [['--kits', 'many'], '--kits must be an integer >= 4'],
    ] as const) {
      const { code, stderr } = await run(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.split('\n')[0]).toContain(`emulator: ${message}, got '${args[1]}'`);
    }
  });
});
