/** The messages between the webhook receiver and its warm renderer child (scripts/warm/renderer.ts), over IPC. */

/** Receiver → child: make the upstream's current state live. */
export interface ChangeRequest {
  type: 'change';
}

export type RendererMessage =
  /** The child's first, full build ended (the build command's exit code); the child ends unless `warm`. */
  | { type: 'built'; exitCode: number; warm: boolean; why?: string }
  /** A change made warm and swapped in. */
  | { type: 'changed'; summary: string }
  /** A change the child cannot make warm (nothing was published); the child ends, a full build follows. */
  | { type: 'full'; why: string };
