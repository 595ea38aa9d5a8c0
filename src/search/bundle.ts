/**
 * The search's browser code as classic scripts (IIFE, no modules: they must
 * run from `file://`), bundled with esbuild from src/search/client/. The
 * search page names the controller and the index's entry names the engine, so
 * both carry a hash of their bytes. Bundled once per process, kept in the
 * build session (src/config/session.ts): Astro loads the integration and the pages in separate module graphs, and
 * the integration bundles first (src/integrations/search.ts), where this
 * file's own folder is where its sources are.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { build } from 'esbuild';
import { buildSession } from '../config/session.ts';

export interface BundledScript {
  /** File name inside `_search/` (`search.<hash>.js`). */
  name: string;
  code: string;
}

export interface SearchScripts {
  /** The search page's controller: reads the form, loads the index when needed, shows results. */
  controller: BundledScript;
  /** MiniSearch, the stemmers and engine.ts: loaded by the controller with the index. */
  engine: BundledScript;
}

const CLIENT = path.join(import.meta.dirname, 'client');

declare module '../config/session.ts' {
  interface SessionState {
    searchScripts: Promise<SearchScripts>;
  }
}

export function searchScripts(): Promise<SearchScripts> {
  const { state } = buildSession();
  state.searchScripts ??= Promise.all([bundle('search', 'controller.ts'), bundle('engine', 'engine.ts')]).then(([controller, engine]) => ({
    controller,
    engine,
  }));
  return state.searchScripts;
}

async function bundle(stem: string, entry: string): Promise<BundledScript> {
  const result = await build({
    entryPoints: [path.join(CLIENT, entry)],
    bundle: true,
    format: 'iife',
    minify: true,
    target: ['es2020'],
    charset: 'utf8',
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { name: `${stem}.${createHash('sha256').update(code).digest('hex').slice(0, 10)}.js`, code };
}
