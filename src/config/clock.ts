/**
 * The build's clock as the reproducible-builds convention pins it
 * (`SOURCE_DATE_EPOCH`, whole seconds since the epoch), and the instant a
 * build decides "public yet?" at: the machine's clock, or the pinned one when
 * it is earlier. Never later than the real clock, so a pinned build date can
 * hold an embargo longer but can never lift one early.
 */
import { ConfigError } from './environment.ts';

/** `SOURCE_DATE_EPOCH` in ms, undefined when unset; a malformed value is a configuration error (one line). */
export function sourceDateEpoch(env: Record<string, string | undefined> = process.env): number | undefined {
  const pinned = env.SOURCE_DATE_EPOCH?.trim();
  if (!pinned) return undefined;
  if (!/^\d{1,12}$/.test(pinned)) {
    throw new ConfigError('SOURCE_DATE_EPOCH', [
      `SOURCE_DATE_EPOCH=${JSON.stringify(env.SOURCE_DATE_EPOCH)} is not a whole number of seconds since 1970-01-01 UTC; set it like $(date +%s) or unset it`,
    ]);
  }
  return Number(pinned) * 1000;
}

export function publicationInstant(env: Record<string, string | undefined> = process.env, realNow = Date.now()): number {
  const pinned = sourceDateEpoch(env);
  return pinned === undefined ? realNow : Math.min(realNow, pinned);
}
