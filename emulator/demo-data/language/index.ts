import type { Lang, LanguagePack } from './pack.ts';
import { en } from './en.ts';
import { nl } from './nl.ts';
import { de } from './de.ts';

export const PACKS: Readonly<Record<Lang, LanguagePack>> = { en, nl, de };
