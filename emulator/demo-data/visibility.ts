import type { IsoDate, PublicationState, Visibility } from '../model/types.ts';

/** Published, public, no embargo. */
export function visible(): Visibility {
  return { _state: 'published', _private: false, _visibleFrom: null };
}

export function hidden(state: PublicationState, opts: { private?: boolean; visibleFrom?: IsoDate | null } = {}): Visibility {
  return { _state: state, _private: opts.private ?? false, _visibleFrom: opts.visibleFrom ?? null };
}
