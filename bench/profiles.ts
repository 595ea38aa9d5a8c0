/**
 * The sizes the benchmarks run at. `demo` is the press room every build of
 * the project starts from (minutes on two cores); `L` is the reference scale
 * of the performance goals; a number is that many releases, the rest grown
 * from it as the emulator does.
 */
import { EXIT } from '../scripts/cli.ts';

export interface Profile {
  /** `demo`, `L` or the number of releases: names the results file. */
  name: string;
  scale: number;
  images?: number;
  kits?: number;
}

export const PROFILES: Readonly<Record<string, Profile>> = {
  demo: { name: 'demo', scale: 60 },
  L: { name: 'L', scale: 10_000, images: 5_000, kits: 1_000 },
};

/** `demo`, `L` or a whole number of releases; undefined for anything else. */
export function profileOf(value: string | undefined): Profile | undefined {
  const wanted = value ?? 'demo';
  if (wanted in PROFILES) return PROFILES[wanted];
  if (/^[1-9]\d*$/.test(wanted)) return { name: wanted, scale: Number(wanted) };
  return undefined;
}

/** The emulator's command-line flags for a profile. */
export function emulatorFlags(profile: Profile): string[] {
  return [
    '--scale',
    String(profile.scale),
    ...(profile.images === undefined ? [] : ['--images', String(profile.images)]),
    ...(profile.kits === undefined ? [] : ['--kits', String(profile.kits)]),
  ];
}

/** The profile `--scale` names; one line and the usage exit code (2) when it names none. */
export function profileOrExit(value: unknown): Profile {
  const profile = profileOf(value as string | undefined);
  if (profile) return profile;
  console.error(`bench: --scale must be demo, L or a number of releases, got '${String(value)}'`);
  process.exit(EXIT.usage);
}
