/**
 * Page rendering against its ideal: bare Astro rendering the same number of
 * pages. Builds the demo site (warm image cache, so images cost no encode),
 * counts its HTML pages, then builds a bare Astro project with that many
 * trivial pages in a temp folder, and reports the "generating static routes"
 * time of each (from Astro's own log) and the whole-build times, as ratios,
 * plus the build's peak memory. Results go to bench/results/ (not committed).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseCommandLine } from '../scripts/cli.ts';

const parsed = parseCommandLine({ name: 'bench', invocation: 'node bench/pages.ts', summary: 'Page rendering against its ideal: the demo site against bare Astro writing the same number of pages, with peak memory. Run as node bench/pages.ts.', flags: {}, variables: {} });
if ('exit' in parsed) process.exit(parsed.exit);

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const astroBin = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');

interface Timed {
  totalMs: number;
  renderMs: number;
  peakRssMiB: number;
}

/** Runs a build under `/usr/bin/time -v` when available, and reads Astro's route-generation time from its log. */
async function timedBuild(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Timed> {
  const started = performance.now();
  const { stdout, stderr } = await run('/usr/bin/time', ['-v', process.execPath, ...args], { cwd, env, maxBuffer: 256 * 1024 * 1024 }).catch(
    () => run(process.execPath, args, { cwd, env, maxBuffer: 256 * 1024 * 1024 }),
  );
  const totalMs = performance.now() - started;
  const log = `${stdout}\n${stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  const render = /generating static routes[\s\S]*?Completed in ([\d.]+)(m?s)/.exec(log);
  const renderMs = render ? Number(render[1]) * (render[2] === 's' ? 1000 : 1) : NaN;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(log);
  return { totalMs, renderMs, peakRssMiB: rss ? Math.round(Number(rss[1]) / 1024) : NaN };
}

async function countPages(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).length;
}

const work = await mkdtemp(path.join(os.tmpdir(), 'pressroom-bench-pages-'));
try {
  const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' };
  const siteOut = path.join(work, 'site');
  await timedBuild(['scripts/build.ts', '--out', siteOut], root, env); // warm the image and HTTP caches
  const site = await timedBuild(['scripts/build.ts', '--out', siteOut], root, env);
  const pages = await countPages(siteOut);

  const bare = path.join(work, 'bare');
  await mkdir(path.join(bare, 'src', 'pages'), { recursive: true });
  await symlink(path.join(root, 'node_modules'), path.join(bare, 'node_modules'), 'dir');
  await writeFile(path.join(bare, 'package.json'), '{"type":"module"}\n');
  await writeFile(path.join(bare, 'astro.config.mjs'), "export default { build: { format: 'directory' } };\n");
  await writeFile(
    path.join(bare, 'src', 'pages', '[n].astro'),
    `---\nexport function getStaticPaths() { return Array.from({ length: ${pages} }, (_, n) => ({ params: { n: String(n) } })); }\nconst { n } = Astro.params;\n---\n<html lang="en"><head><meta charset="utf-8"><title>Page {n}</title></head><body><main><h1>Page {n}</h1><p>Bare Astro page.</p></main></body></html>\n`,
  );
  await timedBuild([astroBin, 'build'], bare, env);
  const ideal = await timedBuild([astroBin, 'build'], bare, env);

  const result = {
    pages,
    site: { totalMs: Math.round(site.totalMs), renderMs: Math.round(site.renderMs), peakRssMiB: site.peakRssMiB },
    bareAstro: { totalMs: Math.round(ideal.totalMs), renderMs: Math.round(ideal.renderMs) },
    ratio: { render: Number((site.renderMs / ideal.renderMs).toFixed(2)), total: Number((site.totalMs / ideal.totalMs).toFixed(2)) },
  };
  const dir = path.join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'pages.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `pages: ${pages} HTML pages\n` +
      `  route generation ${result.site.renderMs} ms vs bare Astro ${result.bareAstro.renderMs} ms → ratio ${result.ratio.render}\n` +
      `  whole warm build ${result.site.totalMs} ms vs bare Astro ${result.bareAstro.totalMs} ms → ratio ${result.ratio.total} (content sync, images and search included)\n` +
      `  peak RSS of the build ${result.site.peakRssMiB} MiB`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
