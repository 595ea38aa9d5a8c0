/**
 * The ideal of page rendering: a bare Astro project whose one endpoint writes
 * the very bytes of every route a built site has (read from the site), so it
 * does Astro's work of producing that many files of that size and nothing of
 * the product's (no data, no components, no images).
 */
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Written by Astro integrations, the image pipeline or the build script (dotfiles), not by rendering a route. */
const NOT_ROUTES = [/^\./, /^_astro\//, /^_media\//, /^_search\//, /^pagefind\//, /^sitemap-(index|\d+)\.xml$/];

/** Every file of a built site that a route rendered (not assets, images, search indexes or copies of `public/`). */
export async function routeFiles(siteDir: string, publicDir: string): Promise<string[]> {
  const publicFiles = new Set(
    (await readdir(publicDir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(publicDir, path.join(e.parentPath, e.name))),
  );
  const files = (await readdir(siteDir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(siteDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  return files.filter((f) => !publicFiles.has(f) && !NOT_ROUTES.some((re) => re.test(f))).sort();
}

/** Writes the bare project into `dir`; building it writes every route file of `siteDir` again. */
export async function writeBareProject(dir: string, nodeModules: string, siteDir: string, routes: string[]): Promise<void> {
  await mkdir(path.join(dir, 'src', 'pages'), { recursive: true });
  await symlink(nodeModules, path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}\n');
  await writeFile(path.join(dir, 'astro.config.mjs'), "export default { build: { format: 'file' } };\n");
  await writeFile(path.join(dir, 'routes.json'), JSON.stringify({ site: siteDir, routes }));
  await writeFile(
    path.join(dir, 'src', 'pages', '[...route].ts'),
    [
      "import { readFile } from 'node:fs/promises';",
      "import list from '../../routes.json';",
      'export const prerender = true;',
      'export function getStaticPaths() {',
      '  return list.routes.map((route) => ({ params: { route } }));',
      '}',
      'export async function GET({ params }) {',
      '  return new Response(await readFile(`${list.site}/${params.route}`));',
      '}',
      '',
    ].join('\n'),
  );
}
