// Keeps the press room build's caches (PRESSROOM_CACHE_DIR: the HTTP answers, media originals,
// renditions and zips, the site icons) between Netlify builds, with Netlify's build-plugin cache
// utilities: restored before the build, saved after a successful one.

/** The folder the build uses: PRESSROOM_CACHE_DIR from netlify.toml or the site's variables, else the project's `.cache`. */
function cacheDir(netlifyConfig) {
  return netlifyConfig?.build?.environment?.PRESSROOM_CACHE_DIR || process.env.PRESSROOM_CACHE_DIR || '.cache';
}

export const onPreBuild = async ({ utils, netlifyConfig }) => {
  const dir = cacheDir(netlifyConfig);
  const restored = await utils.cache.restore(dir);
  console.log(restored ? `pressroom-cache: restored ${dir}` : `pressroom-cache: nothing cached yet for ${dir}: a cold build`);
};

export const onPostBuild = async ({ utils, netlifyConfig }) => {
  const dir = cacheDir(netlifyConfig);
  const saved = await utils.cache.save(dir);
  console.log(saved ? `pressroom-cache: saved ${dir}` : `pressroom-cache: ${dir} does not exist, nothing saved`);
};
