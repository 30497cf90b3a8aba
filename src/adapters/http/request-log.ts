import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id: a well-formed `x-request-id`, else a fresh UUID. Echoed in the answer. */
      id: string;
      /** A logger that tags each line with the request id (made on first use). */
      log: Logger;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * One JSON line per request when it ends (method, path, status, time, request id). Only
 * those fields are written: no headers, bodies, cookies or keys can reach the log this way.
 */
export const requestLog =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const started = performance.now();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ reqId: id })), configurable: true });
    res.once('close', () => {
      const line = {
        req: { id, method: req.method, url: req.originalUrl, remoteAddress: req.socket.remoteAddress },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (!res.writableFinished) logger.warn(line, 'request aborted');
      else if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    });
    next();
  };
