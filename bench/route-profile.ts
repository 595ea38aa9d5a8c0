/**
 * Where route generation spends its time: a V8 CPU profile of a build
 * (`node --cpu-prof`) cut to Astro's route generation (the first to the last
 * sample under `generatePathWithPrerenderer`), each sample charged to the
 * first frame from the leaf up that belongs to a known part. Astro's own
 * rendering and its file writes are what the bare-Astro ideal does too;
 * everything else is the product's.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface RouteProfile {
  /** Route generation as the profile saw it (profiling slows it down). */
  windowMs: number;
  /** Most time first; shares of `windowMs`. */
  parts: Array<{ part: string; ms: number; share: number }>;
}

/**
 * Parts by the source of a frame: Vite names the built chunks after their first module
 * (`.prerender/chunks/llms_<hash>.mjs`), and npm packages by their folder.
 */
const PARTS: Array<[part: string, source: RegExp]> = [
  [
    'Markdown (twins, llms files)',
    /\/chunks\/llms_|\/node_modules\/(mdast-|hast-|parse5|micromark|unist-|zwitch|rehype-|longest-streak|markdown-table)/,
  ],
  ['feeds and XML', /\/chunks\/(feeds|xml|feed-[a-z-]+)_/],
  ['HTML sanitizing', /\/node_modules\/(sanitize-html|htmlparser2|domhandler|domutils|dom-serializer|entities)\//],
  ['images (picture sets, cache checks)', /\/chunks\/images_|\/node_modules\/undici\//],
  ['emulator in the build process (demo only)', /\/emulator\//],
  ['calendars and vCards', /\/chunks\/(event-calendar|calendar|_contact_|_event_)|\/node_modules\/ics\//],
  ['site data, dates and formatting', /\/chunks\/data_/],
  ['other product code', /\/\.prerender\/chunks\/(?!server_)/],
  ['Astro rendering', /\/\.prerender\/chunks\/server_|\/\.prerender\/prerender-entry|\/node_modules\/astro\//],
];
const FILE_SYSTEM = new Set([
  'mkdir',
  'open',
  'openFileHandle',
  'writeBuffer',
  'writeString',
  'close',
  'stat',
  'fstat',
  'lstat',
  'utimes',
  'read',
  'rename',
]);

function partOf(frames: ProfileNode['callFrame'][]): string {
  const leaf = frames[0]!;
  if (leaf.functionName === '(garbage collector)') return 'garbage collection';
  if (leaf.functionName === '(idle)') return 'idle (waiting for I/O)';
  if (leaf.url === '' && FILE_SYSTEM.has(leaf.functionName)) return 'file system';
  for (const frame of frames) for (const [part, source] of PARTS) if (source.test(frame.url)) return part;
  return 'Node.js and other';
}

/** The route-generation breakdown of one profile, or undefined when it holds no route generation. */
function breakdown(profile: CpuProfile): RouteProfile | undefined {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = (id: number) => {
    const frames: ProfileNode['callFrame'][] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)!.callFrame);
    return frames;
  };
  let at = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    at += profile.timeDeltas[i]!;
    return { at, frames: stackOf(id), ms: (profile.timeDeltas[i + 1] ?? 0) / 1000 };
  });
  const generating = samples.filter((s) => s.frames.some((f) => f.functionName === 'generatePathWithPrerenderer'));
  if (generating.length === 0) return undefined;
  const first = generating[0]!.at;
  const last = generating.at(-1)!.at;
  const totals = new Map<string, number>();
  let windowMs = 0;
  for (const sample of samples) {
    if (sample.at < first || sample.at > last) continue;
    const part = partOf(sample.frames);
    totals.set(part, (totals.get(part) ?? 0) + sample.ms);
    windowMs += sample.ms;
  }
  return {
    windowMs: Math.round(windowMs),
    parts: [...totals]
      .sort(([, a], [, b]) => b - a)
      .map(([part, ms]) => ({ part, ms: Math.round(ms), share: Number((ms / windowMs).toFixed(3)) })),
  };
}

const readProfile = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as CpuProfile;

/**
 * The route-generation breakdown of a build profiled into `dir`: `scripts/build.ts` restarts
 * itself (memory-bounds.ts), and the process before the restart leaves a profile of its own
 * unless both are written within the same second under the same name.
 */
export async function buildRouteProfile(dir: string): Promise<RouteProfile> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile')).sort();
  for (const name of files) {
    const found = breakdown(await readProfile(path.join(dir, name)));
    if (found) return found;
  }
  throw new Error(`bench: no profile in ${dir} holds route generation (generatePathWithPrerenderer)`);
}
