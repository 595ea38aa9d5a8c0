/**
 * The instant a build decides "public yet?" at: the machine's clock, or the
 * standard `SOURCE_DATE_EPOCH` (seconds) of reproducible builds when it is set
 * and earlier. Never later than the real clock, so a pinned build date can
 * hold an embargo longer but can never lift one early.
 */
import { ConfigError } from '../config.ts';

export function publicationInstant(env: Record<string, string | undefined> = process.env, realNow = Date.now()): number {
  const pinned = env.SOURCE_DATE_EPOCH?.trim();
  if (!pinned) return realNow;
  if (!/^\d+$/.test(pinned)) {
    throw new ConfigError('SOURCE_DATE_EPOCH', [`SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got ${JSON.stringify(pinned)}`]);
  }
  return Math.min(realNow, Number(pinned) * 1000);
}
