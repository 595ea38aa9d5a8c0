/**
 * The workspace packages (content-loaders, image-pipeline) export their TypeScript sources under
 * the custom condition `source` and their compiled `dist/` otherwise (their package.json
 * `exports`). This repository runs the sources, so every module resolver in it knows the
 * condition: Node by `--conditions=source` on every command (the package.json scripts, and the
 * Node processes a command or a test starts), TypeScript by `customConditions` in tsconfig.json,
 * Vite (Astro, Vitest) by src/integrations/source-condition.ts. An installed copy of a package
 * has no sources and is resolved by none of them: it gets the compiled JavaScript and its types.
 */
export const SOURCE_CONDITION = 'source';

/** The Node flag that resolves the workspace packages to their sources. */
export const SOURCE_CONDITION_FLAG = `--conditions=${SOURCE_CONDITION}`;

/** This process's `--conditions` flags, for a Node process it starts to resolve modules as it does. */
export function conditionFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return execArgv.filter((flag) => flag.startsWith('--conditions='));
}

/**
 * Stops a command started without `--conditions=source` (a bare `node scripts/build.ts`) with one
 * line, before its modules load: they would resolve the workspace packages to a `dist/` that a
 * checkout does not have (`npm pack` removes it again) and fail with Node's ERR_MODULE_NOT_FOUND.
 */
export function exitUnlessSourceCondition(command: string): void {
  if (import.meta.resolve('@pressroom-static/content-loaders').endsWith('.ts')) return;
  console.error(
    `${command}: started without ${SOURCE_CONDITION_FLAG}: run it as \`npm run ${command}\` (or node ${SOURCE_CONDITION_FLAG} …)`,
  );
  process.exit(2);
}
