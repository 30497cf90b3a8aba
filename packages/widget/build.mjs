// Bundles the widget's browser files into dist/ with esbuild, the same bytes for the same
// sources. `tsc -b` writes the types beside them. `--check` builds in memory and fails
// when dist/ is stale.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Each bundle: an entry, the file it becomes in dist/, and its format. */
const BUNDLES = [
  // The self-hosted widget: a classic script tag (window.CareerBotWidget) and an ES module.
  { entry: 'src/browser.ts', out: 'careerbot-widget.js', format: 'iife' },
  { entry: 'src/index.ts', out: 'careerbot-widget.mjs', format: 'esm' },
  // The managed embed, which the platform serves as /widget.js: the launcher and the chat's frame.
  { entry: 'src/managed-embed.ts', out: 'managed-embed.js', format: 'iife' },
  // The chat inside that frame, on the platform's embed page (/embed/{botId}).
  { entry: 'src/embed-frame.ts', out: 'embed-frame.js', format: 'iife' },
  // The chat problems in words, for the platform's own pages.
  { entry: 'src/chat-problems.ts', out: 'chat-problems.js', format: 'esm' },
  // Streamed replies read and their markdown drawn as DOM nodes (marked's lexer), for the platform's pages.
  { entry: 'src/chat-reply.ts', out: 'chat-reply.js', format: 'esm' },
];

const check = process.argv.includes('--check');
let stale = 0;
for (const bundle of BUNDLES) {
  const outfile = path.join(HERE, 'dist', bundle.out);
  const result = await build({
    entryPoints: [path.join(HERE, bundle.entry)],
    outfile,
    format: bundle.format,
    bundle: true,
    minify: true,
    write: false,
    target: ['es2020'],
    legalComments: 'none',
    logLevel: 'warning',
    absWorkingDir: HERE,
  });
  for (const file of result.outputFiles) {
    if (check) {
      const current = await readFile(file.path).catch(() => null);
      if (!current || !current.equals(Buffer.from(file.contents))) stale++;
      continue;
    }
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, file.contents);
  }
}
if (stale) {
  console.error(`@careerbot/widget: ${stale} built file(s) differ from their sources: run npm run build -w @careerbot/widget`);
  process.exit(1);
}
