/**
 * The CI recipes of docs/ci/ (docs/operating.md, "Keeping the cache on CI"): each keeps
 * between runs the very folder PRESSROOM_CACHE_DIR points the build at, and
 * runs the build. No CI service runs here: the recipes are read as their
 * services read them, and the Netlify plugin is called as Netlify calls it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';

const recipes = path.resolve(import.meta.dirname, '..', '..', 'docs', 'ci');
const readYaml = async (file: string): Promise<any> => parseYaml(await readFile(path.join(recipes, file), 'utf8'));

/** `${{ env.NAME }}` and `${{ github.workspace }}` as GitHub Actions expands them for a job. */
function expandGithub(value: string, env: Record<string, string>, workspace: string): string {
  return value.replace(/\$\{\{\s*(env\.(\w+)|github\.workspace)\s*\}\}/g, (_, _expr, name: string | undefined) =>
    name ? expandGithub(env[name] ?? '', env, workspace) : workspace,
  );
}

describe('GitHub Actions recipe', () => {
  it('restores the newest cache of PRESSROOM_CACHE_DIR, builds into it and saves it under a new key', async () => {
    const workflow = await readYaml('github-actions.yml');
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/\S+( \S+){4}/);
    const [job] = Object.values<any>(workflow.jobs);
    const steps: any[] = job.steps;
    const workspace = '/home/runner/work/site/site';
    const cacheDir = expandGithub(job.env.PRESSROOM_CACHE_DIR, job.env, workspace);
    expect(path.isAbsolute(cacheDir)).toBe(true);

    const cacheStep = steps.findIndex((step) => String(step.uses).startsWith('actions/cache@'));
    expect(cacheStep).toBeGreaterThanOrEqual(0);
    const cache = steps[cacheStep].with;
    expect(expandGithub(cache.path, job.env, workspace)).toBe(cacheDir);
    // A key of its own per run (entries are never overwritten); the prefix restores the newest earlier one.
    expect(cache.key).toContain('${{ github.run_id }}');
    const restoreKeys = String(cache['restore-keys']).split('\n').filter(Boolean);
    expect(restoreKeys.length).toBeGreaterThan(0);
    for (const prefix of restoreKeys) expect(cache.key.startsWith(prefix)).toBe(true);

    const run = (command: string) => steps.findIndex((step) => step.run === command);
    const checkout = steps.findIndex((step) => String(step.uses).startsWith('actions/checkout@'));
    const node = steps.findIndex((step) => String(step.uses).startsWith('actions/setup-node@'));
    expect(checkout).toBe(0);
    expect(steps[node].with['node-version']).toBe(24);
    expect(run('npm install')).toBeGreaterThan(node);
    // Restored before the build reads it, so the build is warm and actions/cache saves what it left.
    expect(run('npm run build')).toBeGreaterThan(Math.max(cacheStep, run('npm install')));
    // No step moves the build elsewhere: the job's PRESSROOM_CACHE_DIR is the one it sees.
    for (const step of steps) expect(step.env?.PRESSROOM_CACHE_DIR).toBeUndefined();
    // The deploy is the real one, after the build, its credentials from secrets only.
    const deploy = steps.at(-1);
    expect(deploy.name).toBe('Deploy');
    expect(deploy.run).toMatch(/^npm run deploy -- "\$PRESSROOM_BUCKET"/);
    expect(deploy.env.PRESSROOM_BUCKET).toBe('${{ vars.PRESSROOM_BUCKET }}');
    for (const secret of ['AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'CF_API_TOKEN'])
      expect(deploy.env[secret]).toBe(`\${{ secrets.${secret} }}`);
  });
});

describe('GitLab CI recipe', () => {
  it('caches a folder inside the project, the very one PRESSROOM_CACHE_DIR names, on a schedule', async () => {
    const pipeline = await readYaml('gitlab-ci.yml');
    expect(pipeline.workflow.rules.map((rule: { if: string }) => rule.if)).toContain('$CI_PIPELINE_SOURCE == "schedule"');
    const job = pipeline.pressroom;
    expect(job.script).toContain('npm install');
    expect(job.script.indexOf('npm run build')).toBeGreaterThan(job.script.indexOf('npm install'));
    expect(job.script.at(-1)).toBe('npm run deploy -- "$PRESSROOM_BUCKET" --purge cloudflare');

    const project = '/builds/group/site';
    const cacheDir = path.resolve(String(job.variables.PRESSROOM_CACHE_DIR).replace(/\$\{?CI_PROJECT_DIR\}?/g, project));
    const cached = job.cache.paths.map((entry: string) => path.resolve(project, entry));
    expect(cached).toEqual([cacheDir]);
    // GitLab caches only paths inside the project directory.
    const inside = path.relative(project, cacheDir);
    expect(inside === '' || inside.startsWith('..') || path.isAbsolute(inside)).toBe(false);
    expect(job.cache.key).toEqual(expect.any(String));
  });
});

describe('Netlify recipe', () => {
  const pluginDir = path.join(recipes, 'netlify', 'plugins', 'pressroom-cache');
  // Netlify's build runtime cannot run here: a utils.cache that records what the plugin asks of it.
  const fakeUtils = () => {
    const calls: string[] = [];
    const cache = {
      restore: async (dir: string) => (calls.push(`restore ${dir}`), true),
      save: async (dir: string) => (calls.push(`save ${dir}`), true),
    };
    return { calls, utils: { cache } };
  };
  const loadPlugin = async () => import(pathToFileURL(path.join(pluginDir, 'index.js')).href);

  afterEach(() => vi.unstubAllEnvs());

  it('builds with the local plugin and a PRESSROOM_CACHE_DIR inside the project', async () => {
    const config: any = parseToml(await readFile(path.join(recipes, 'netlify', 'netlify.toml'), 'utf8'));
    expect(config.build.command).toBe('npm run build');
    expect(config.plugins).toEqual([{ package: '/plugins/pressroom-cache' }]);
    expect(path.isAbsolute(config.build.environment.PRESSROOM_CACHE_DIR)).toBe(false);
    const manifest = await readYaml('netlify/plugins/pressroom-cache/manifest.yml');
    expect(manifest.name).toBe('pressroom-cache');
  });

  it('restores the PRESSROOM_CACHE_DIR folder before the build and saves it after', async () => {
    const netlifyConfig: any = parseToml(await readFile(path.join(recipes, 'netlify', 'netlify.toml'), 'utf8'));
    const dir = netlifyConfig.build.environment.PRESSROOM_CACHE_DIR;
    const plugin = await loadPlugin();
    const { calls, utils } = fakeUtils();
    await plugin.onPreBuild({ utils, netlifyConfig });
    expect(calls).toEqual([`restore ${dir}`]);
    await plugin.onPostBuild({ utils, netlifyConfig });
    expect(calls).toEqual([`restore ${dir}`, `save ${dir}`]);
  });

  it('follows a PRESSROOM_CACHE_DIR set among the site variables instead of netlify.toml', async () => {
    vi.stubEnv('PRESSROOM_CACHE_DIR', 'build-cache');
    const plugin = await loadPlugin();
    const { calls, utils } = fakeUtils();
    const netlifyConfig = { build: { environment: {} } };
    await plugin.onPreBuild({ utils, netlifyConfig });
    await plugin.onPostBuild({ utils, netlifyConfig });
    expect(calls).toEqual(['restore build-cache', 'save build-cache']);
  });
});
