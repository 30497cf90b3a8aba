// Boundary rules that need to know where an import lands, not only how it is spelled:
// each import is resolved against the importing file and judged by its place in the repo.
//
// - adapter-folders: a file in src/adapters/<x>/ imports nothing in src/adapters/<y>/; the
//   files directly in src/adapters/ (logger, config, password hasher) are shared by every
//   adapter and import no adapter folder themselves. composition.ts joins the adapters.
// - package-imports: a file in packages/<p>/ imports nothing outside packages/<p>/ by a
//   relative path (not src/, not another package), and another package only by its name
//   or a subpath its package.json `exports` declares.
// - packages-by-name: a file outside packages/ imports a package by name (and declared
//   subpaths), never by a relative path into packages/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SCOPE = '@careerbot/';

/** The repo-relative, slash-separated path of `file`. */
const repoPath = (cwd, file) => path.relative(cwd, file).split(path.sep).join('/');

/** Calls `check(source, node)` for every import, re-export and literal dynamic import. */
const onImports = (check) => {
  const visit = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node.source.value, node.source);
  };
  return { ImportDeclaration: visit, ExportAllDeclaration: visit, ExportNamedDeclaration: visit, ImportExpression: visit };
};

/** Where a relative import lands, repo-relative; null for a bare specifier. */
const landing = (context, source) => {
  if (!source.startsWith('.')) return null;
  return repoPath(context.cwd, path.resolve(path.dirname(context.filename), source));
};

/** Each workspace package's name -> the subpaths its `exports` declares ('.', './script', ...). */
const exportedSubpaths = (cwd) => {
  const packages = new Map();
  let dirs = [];
  try {
    dirs = readdirSync(path.join(cwd, 'packages'));
  } catch {
    return packages;
  }
  for (const dir of dirs) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(cwd, 'packages', dir, 'package.json'), 'utf8'));
      const { exports } = manifest;
      const keys =
        exports && typeof exports === 'object' && Object.keys(exports).some((key) => key.startsWith('.')) ? Object.keys(exports) : ['.'];
      packages.set(manifest.name, keys);
    } catch {
      // A folder without a package.json is no package.
    }
  }
  return packages;
};

const declares = (keys, subpath) =>
  keys.some((key) => {
    if (!key.includes('*')) return key === subpath;
    const [before, after] = key.split('*');
    return subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= before.length + after.length;
  });

/** For `@careerbot/name/sub...`: a message when the subpath is not one the package exports. */
const undeclaredSubpath = (packages, source) => {
  if (!source.startsWith(SCOPE)) return null;
  const [scope, name, ...rest] = source.split('/');
  if (rest.length === 0) return null;
  const subpath = `./${rest.join('/')}`;
  const keys = packages.get(`${scope}/${name}`);
  if (keys && declares(keys, subpath)) return null;
  return `${scope}/${name} does not export ${subpath}: import the package by its name (or a subpath its package.json exports).`;
};

const adapterFolders = {
  meta: { type: 'problem', schema: [], docs: { description: 'One adapter folder does not import another.' } },
  create(context) {
    const from = repoPath(context.cwd, context.filename);
    const parts = from.split('/');
    if (parts[0] !== 'src' || parts[1] !== 'adapters') return {};
    const ownFolder = parts.length > 3 ? parts[2] : null;
    return onImports((source, node) => {
      const to = landing(context, source);
      if (!to) return;
      const target = to.split('/');
      if (target[0] !== 'src' || target[1] !== 'adapters' || target.length < 4 || target[2] === ownFolder) return;
      context.report({
        node,
        message: ownFolder
          ? `adapters/${ownFolder} must not import adapters/${target[2]}: let composition.ts join them, or move what both need to a shared place.`
          : `The shared adapter files must not import adapters/${target[2]}.`,
      });
    });
  },
};

const packageImports = {
  meta: { type: 'problem', schema: [], docs: { description: 'A package imports only its own files and other packages by name.' } },
  create(context) {
    const from = repoPath(context.cwd, context.filename);
    const parts = from.split('/');
    if (parts[0] !== 'packages' || parts.length < 3) return {};
    const own = `packages/${parts[1]}/`;
    const packages = exportedSubpaths(context.cwd);
    return onImports((source, node) => {
      const to = landing(context, source);
      if (to !== null) {
        if (to.startsWith(own)) return;
        context.report({ node, message: `${source} leaves ${own}: a package imports src/ never, and other packages by name only.` });
        return;
      }
      const message = undeclaredSubpath(packages, source);
      if (message) context.report({ node, message });
    });
  },
};

const packagesByName = {
  meta: { type: 'problem', schema: [], docs: { description: 'Packages are imported by name, not by a path into packages/.' } },
  create(context) {
    const from = repoPath(context.cwd, context.filename);
    if (from.startsWith('packages/')) return {};
    const packages = exportedSubpaths(context.cwd);
    return onImports((source, node) => {
      const to = landing(context, source);
      if (to !== null) {
        if (!to.startsWith('packages/')) return;
        context.report({ node, message: `${source} reaches into packages/: import the package by its name (${SCOPE}...).` });
        return;
      }
      const message = undeclaredSubpath(packages, source);
      if (message) context.report({ node, message });
    });
  },
};

export default {
  meta: { name: 'careerbot-boundaries' },
  rules: { 'adapter-folders': adapterFolders, 'package-imports': packageImports, 'packages-by-name': packagesByName },
};
