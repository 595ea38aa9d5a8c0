/**
 * Reading a yes/no value as upstreams spell it: booleans, 1 and 0, and the
 * usual words in any case or spacing. Missing, null and blank say nothing.
 */

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 't', 'yes', 'y', 'on', '1']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'f', 'no', 'n', 'off', '0']);

/** What a flag may look like, for messages. */
export const FLAG_FORMS = 'expected true/false, yes/no, on/off or 1/0';

/** The flag's value, `absent` when nothing is given, `unreadable` when it is given in no known form. */
export function readFlag(value: unknown): boolean | 'absent' | 'unreadable' {
  if (value === undefined || value === null) return 'absent';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : 'unreadable';
  if (typeof value !== 'string') return 'unreadable';
  const word = value.trim().toLowerCase();
  if (word === '') return 'absent';
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : 'unreadable';
}
