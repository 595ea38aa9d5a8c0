/**
 * The data generation of the build session: which load of the press room's data the pages see.
 * A build loads the data once (generation 0). A renderer kept warm between changes
 * (scripts/warm/) loads it again in the same process and starts a new generation: the store
 * module re-reads its file into the Map Astro holds, and every module-level cache of data keyed
 * by generation (`perDataGeneration`) starts empty. A new cache of data goes through here.
 *
 * Kept in the build session (src/config/session.ts): the pages' module graph is not the script's.
 */
import { sessionState } from './session.ts';

interface DataGeneration {
  number: number;
  /** What re-reads data when a new generation starts (the store module of the pages). */
  reloads: Set<() => void>;
}

declare module './session.ts' {
  interface SessionState {
    dataGeneration: DataGeneration;
  }
}

const generation = (): DataGeneration => sessionState('dataGeneration', () => ({ number: 0, reloads: new Set() }));

/** The generation the pages read now. */
export const dataGeneration = (): number => generation().number;

/** Registers what re-reads data at each new generation (once per registrant). */
export function onNewDataGeneration(reload: () => void): void {
  generation().reloads.add(reload);
}

/** The data changed: reloads run, then every per-generation cache starts empty. */
export function startDataGeneration(): number {
  const current = generation();
  for (const reload of current.reloads) reload();
  return ++current.number;
}

/** A value made again for each data generation (a module-level cache of data). */
export function perDataGeneration<T>(make: () => T): () => T {
  let made: { number: number; value: T } | undefined;
  return () => {
    const number = dataGeneration();
    if (made?.number !== number) made = { number, value: make() };
    return made.value;
  };
}
