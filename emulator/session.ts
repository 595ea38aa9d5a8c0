/**
 * The emulated press room as it stands: the store (replaced on reset), the
 * switchable settings, and the watcher that turns public changes into webhook
 * events.
 */
import { type Shapes } from './defaults.ts';
import { addFlaws, removeFlaws } from './demo-data/flaws.ts';
import { generateWorld } from './demo-data/generate.ts';
import { createClock } from './model/clock.ts';
import { createChangeWatcher } from './model/public-changes.ts';
import { createStore, type Store } from './model/store.ts';
import type { Pressroom } from './model/types.ts';

/** What can be switched while running (admin `POST /_emulator/settings`), as well as at start. */
export interface EmulatorSettings {
  trueTotals: boolean;
  shapes: Shapes;
  leakHidden: boolean;
  flaws: boolean;
}

export interface SessionOptions {
  seed: number;
  scale: number;
  /** Images and media kits apart from the scale (`--images`, `--kits`); the scale's own share when unset. */
  images?: number;
  kits?: number;
  /** The instant the press room is arranged around, where its clock starts. */
  start: Date;
  frozenClock: boolean;
  /** The press room's design colours in place of the demo's own (a newsroom with its own brand). */
  design?: Partial<Pressroom['design']> | undefined;
  initialSettings: () => EmulatorSettings;
  /** Receives every public change (`release.published`, …) as it is noticed. */
  emit: (type: string, data: Record<string, unknown>) => void;
}

export interface EmulatorSession {
  /** One object for the whole run: the admin path changes its fields in place. */
  readonly settings: EmulatorSettings;
  store(): Store;
  /** Emits an event for every public change since the last call (`updated`: ids changed in place). */
  announce(updated?: string[]): void;
  setFlaws(on: boolean): void;
  /** Back to the start: initial settings, a freshly generated press room. */
  reset(): void;
}

export function createSession(options: SessionOptions): EmulatorSession {
  const settings = options.initialSettings();
  const makeStore = () => {
    const world = generateWorld({
      seed: options.seed,
      scale: options.scale,
      images: options.images,
      kits: options.kits,
      now: options.start,
    });
    if (options.design) Object.assign(world.pressroom.design, options.design);
    if (settings.flaws) addFlaws(world, options.start);
    return createStore(world, createClock(options.start, { frozen: options.frozenClock }));
  };
  let store = makeStore();
  let watcher = createChangeWatcher(store);

  const announce = (updated: string[] = []) => {
    for (const change of watcher.check(updated)) options.emit(change.type, change.data);
  };

  return {
    settings,
    store: () => store,
    announce,
    setFlaws(on) {
      if (on === settings.flaws) return;
      settings.flaws = on;
      // Flawed items are dated from the instant the press room is arranged around, as the rest is.
      if (on) addFlaws(store.world, options.start);
      else removeFlaws(store.world);
      store.touch();
      announce();
    },
    reset() {
      Object.assign(settings, options.initialSettings());
      store = makeStore();
      watcher = createChangeWatcher(store);
    },
  };
}
