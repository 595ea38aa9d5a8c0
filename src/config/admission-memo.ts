/**
 * The loaders' admission memo of a process that builds the same press room again and again (the
 * webhook receiver's warm renderer, scripts/warm/): kept in the build session, since the renderer's
 * scripts and the content config live in separate module graphs. A one-off build keeps none, so its
 * loaders compute nothing extra.
 */
import { createAdmissionMemo, type AdmissionMemo } from '@pressroom-static/content-loaders';
import { buildSession } from './session.ts';

declare module './session.ts' {
  interface SessionState {
    admissionMemo: AdmissionMemo;
  }
}

/** From now on each load of this process keeps what every raw item came to, for the next load. */
export function keepAdmissionMemo(): void {
  buildSession().state.admissionMemo ??= createAdmissionMemo();
}

/** The memo this process keeps, if it keeps one (the content config hands it to the loaders). */
export function keptAdmissionMemo(): AdmissionMemo | undefined {
  return buildSession().state.admissionMemo;
}
