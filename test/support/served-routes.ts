import type { Express } from 'express';

export interface ServedRoute {
  method: string;
  /** In OpenAPI form: `/api/chat/{botId}`. */
  path: string;
  handlers: unknown[];
}

interface Layer {
  rawPath?: string | string[];
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown; method?: string }[] };
  handle: { stack?: Layer[] };
}

const join = (prefix: string, path: string) => {
  const joined = `${prefix}${path === '/' ? '' : path}`.replace(/\/{2,}/g, '/');
  return joined === '' ? '/' : joined;
};

/** Every method and path the app really serves, read off Express's router stack. */
export const servedRoutes = (app: Express): ServedRoute[] => {
  const routes: ServedRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m] && m !== '_all')) {
          routes.push({
            method,
            path: join(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}'),
            handlers: layer.route.stack.filter((entry) => !entry.method || entry.method === method).map((entry) => entry.handle),
          });
        }
      } else if (layer.handle.stack) {
        const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '';
        walk(layer.handle.stack, join(prefix, mount === '/' ? '' : mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
};
