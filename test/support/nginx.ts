import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The configuration the README ships. */
const NGINX_EXAMPLE = path.join(ROOT, 'deploy', 'nginx', 'careerbot.conf');

const nginxPath = (): string | null => ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate)) ?? null;

/** Debian's nginx (`.ci/run` installs it); missing in CI is a failure, elsewhere a skip. */
export const nginxAvailable = (): boolean => {
  if (nginxPath() && existsSync('/usr/bin/openssl')) return true;
  if (process.env.CI) throw new Error('nginx or openssl is missing: .ci/run installs them with apt-get');
  console.warn('[nginx tests] skipped: no nginx or openssl here (apt-get install nginx openssl)');
  return false;
};

export interface Nginx {
  /** `https://localhost:<port>`: TLS ends at nginx, with a self-signed certificate. */
  httpsUrl: string;
  httpUrl: string;
  stop(): Promise<void>;
}

/**
 * nginx with the shipped server blocks, in front of `upstreamPort`: only the upstream
 * port, the listen addresses, the server name and the certificate paths are substituted.
 */
export const startNginx = async (upstreamPort: number): Promise<Nginx> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'careerbot-nginx-'));
  // nginx's workers run as an unprivileged user when the master is root: they must reach these.
  await chmod(dir, 0o755);
  for (const sub of ['temp', 'logs']) await mkdir(path.join(dir, sub), { mode: 0o777 }).then(() => chmod(path.join(dir, sub), 0o777));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  const example = await readFile(NGINX_EXAMPLE, 'utf8');
  const servers = example
    .replace('server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`)
    .replace('listen 443 ssl;', `listen 127.0.0.1:${httpsPort} ssl;`)
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replaceAll('server_name careerbot.example.com;', 'server_name localhost;')
    .replace('/etc/ssl/certs/careerbot.example.com.pem', cert)
    .replace('/etc/ssl/private/careerbot.example.com.key', key);
  if (servers === example) throw new Error('the nginx example did not change: its placeholders moved');
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, 'temp', name)};`;
  const conf = `daemon off;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'logs', 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${servers}
}
`;
  const confPath = path.join(dir, 'nginx.conf');
  await writeFile(confPath, conf);
  const child = spawn(nginxPath()!, ['-p', dir, '-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(httpsPort, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    httpsUrl: `https://localhost:${httpsPort}`,
    httpUrl: `http://localhost:${httpPort}`,
    stop: async () => {
      child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
};

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One https request that accepts the test's self-signed certificate. */
export const httpsCall = (url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; signal?: AbortSignal } = {}) =>
  new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, rejectUnauthorized: false, signal: options.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });

/** A cookie jar over `httpsCall`, as a browser keeps one. */
export class HttpsClient {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie line received, to inspect their attributes. */
  readonly setCookies: string[] = [];
  constructor(readonly baseUrl: string) {}

  async call(method: string, pathname: string, json?: unknown, headers: Record<string, string> = {}) {
    const all: Record<string, string> = { ...headers };
    if (this.cookies.size) all.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (json !== undefined) all['content-type'] = 'application/json';
    const answer = await httpsCall(`${this.baseUrl}${pathname}`, { method, headers: all, body: json === undefined ? undefined : JSON.stringify(json) });
    const lines = answer.headers['set-cookie'] ?? [];
    for (const line of Array.isArray(lines) ? lines : [lines]) {
      this.setCookies.push(line);
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    return answer;
  }
}
