/**
 * The receiver's children (a build, a deploy, the warm renderer) run in process groups of their
 * own: a Ctrl-C meant for the receiver does not cut them short, and ending one ends what it
 * started (Pagefind's process, a deploy's uploads).
 */
import type { ChildProcess } from 'node:child_process';

/** Sends `signal` to the child's whole process group; a group already gone is fine. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Hands each non-empty line the child writes (colours stripped) to `onLine`, saying whether it came from stderr. */
export function forwardLines(child: ChildProcess, onLine: (line: string, isError: boolean) => void): void {
  const forward = (stream: NodeJS.ReadableStream, isError: boolean) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (text: string) => {
      const parts = (rest + text).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts.map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd()).filter(Boolean)) onLine(line, isError);
    });
  };
  forward(child.stdout!, false);
  forward(child.stderr!, true);
}
