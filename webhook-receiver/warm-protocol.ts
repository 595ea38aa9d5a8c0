/** The messages between the webhook receiver and its warm renderer child (scripts/warm/renderer.ts), over IPC. */
import type { ChangeScope } from './change-scope.ts';

/** Receiver → child: make the upstream's current state live; `scope`: what the deliveries named (absent: anything). */
export interface ChangeRequest {
  type: 'change';
  scope?: ChangeScope;
}

export type RendererMessage =
  /** The child's first, full build ended (the build command's exit code); the child ends unless `warm`. */
  | { type: 'built'; exitCode: number; warm: boolean; why?: string }
  /** A change made warm and swapped in. */
  | { type: 'changed'; summary: string }
  /** A change the child cannot make warm (nothing was published); the child ends, a full build follows. */
  | { type: 'full'; why: string }
  /**
   * After a change made from the named releases alone: the full sync that followed found more
   * (`why`). The live site is what its data made, but not yet the upstream's whole state: one more
   * change is due, as if a delivery had come.
   */
  | { type: 'stale'; why: string };
