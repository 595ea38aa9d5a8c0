/**
 * A file's identity: its device, inode, size and modification time (ns). A file written again, or
 * replaced by a rename, has another; a hard link of it has the same. What a process may keep of a
 * file it read or wrote holds while the identity is the same.
 */
import { statSync } from 'node:fs';

/** The identity of `file`; undefined when there is none. */
export function fileIdentity(file: string): string | undefined {
  const s = statSync(file, { bigint: true, throwIfNoEntry: false });
  return s && `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}
