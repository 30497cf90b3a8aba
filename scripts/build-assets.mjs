// Builds what the browser loads (the pages' scripts and styles) with esbuild into dist/public,
// which the service serves, beside the widgets that @careerbot/widget built. `npm install`, `npm start` and `npm test` run
// it first, so nobody has to remember a build step. It is deterministic: the same sources
// give the same bytes. `--check` builds in memory and fails if dist/public is stale.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT_DIR = path.join(ROOT, 'dist', 'public');

/**
 * Each bundle: an entry point and the file it becomes under dist/public.
 * format: 'esm' for pages loaded as modules, 'iife' for classic script tags.
 */
export const BUNDLES = [
  // The owner's web app and a bot's public page (src/adapters/pages).
  { entry: 'src/adapters/pages/client/main.tsx', out: 'app.js', format: 'esm' },
  { entry: 'src/adapters/pages/client/styles.css', out: 'app.css', format: 'esm' },
  // The self-hosted runtime's command as one file for Node 20 (its packages and the provider SDKs
  // inside): an owner downloads it from the platform and runs it with `node`, nothing to install.
  {
    entry: 'packages/runtime/src/cli.ts',
    out: 'runtime/careerbot-runtime.mjs',
    format: 'esm',
    options: {
      platform: 'node',
      target: ['node20'],
      // The SDKs' CommonJS parts call require(); an ES module has none of its own.
      banner: { js: "import { createRequire as __careerbotRequire } from 'node:module'; const require = __careerbotRequire(import.meta.url);" },
    },
  },
];

const common = {
  bundle: true,
  minify: true,
  write: false,
  target: ['es2020'],
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
  absWorkingDir: ROOT,
};

/**
 * The widgets, which @careerbot/widget builds itself (its own `npm run build`): each export of
 * the package and the path the service serves it at, under dist/public.
 */
export const WIDGET_FILES = [
  // The managed embed: one script tag on any site.
  { specifier: '@careerbot/widget/embed', out: 'widget.js' },
  // The chat in the managed embed's frame, which the embed page loads from /assets.
  { specifier: '@careerbot/widget/embed-frame', out: 'embed-frame.js' },
  // The self-hosted widget, served by the platform and published as a package.
  { specifier: '@careerbot/widget/script', out: 'widget/careerbot-widget.js' },
  { specifier: '@careerbot/widget', out: 'widget/careerbot-widget.mjs' },
];

export const buildAll = async () => {
  const { build } = await import('esbuild');
  const files = new Map();
  for (const bundle of BUNDLES) {
    const result = await build({ ...common, entryPoints: [path.join(ROOT, bundle.entry)], format: bundle.format, outfile: path.join(OUT_DIR, bundle.out), ...bundle.options });
    for (const file of result.outputFiles) files.set(file.path, file.contents);
  }
  for (const widget of WIDGET_FILES) {
    files.set(path.join(OUT_DIR, widget.out), await readFile(fileURLToPath(import.meta.resolve(widget.specifier))));
  }
  return files;
};

const esbuildInstalled = async () => {
  try {
    await import('esbuild');
    return true;
  } catch {
    return false;
  }
};

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // A production install (npm ci --omit=dev) has no esbuild: it runs what `npm run build` built.
  if (!(await esbuildInstalled())) {
    if (existsSync(path.join(OUT_DIR, 'app.js'))) {
      console.log('build-assets: esbuild is not installed (production install); using the assets already built in dist/public');
      process.exit(0);
    }
    console.error('build-assets: esbuild is missing and dist/public is empty: run npm install (with dev dependencies), or npm run build elsewhere');
    process.exit(1);
  }
  const files = await buildAll();
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [file, contents] of files) {
    if (check) {
      const current = await readFile(file).catch(() => null);
      if (!current || !current.equals(Buffer.from(contents))) stale++;
      continue;
    }
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, contents);
  }
  if (check && stale) {
    console.error(`${stale} built file(s) differ from their sources: run npm run build:assets`);
    process.exit(1);
  }
}
