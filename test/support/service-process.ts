import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Runs `src/main.ts` as `npm start` does, in its own process. */
export const spawnService = (env: Record<string, string>) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
};

/** Spawns the service and waits for its "listening" log line. */
export const startServiceProcess = async (env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> => {
  const service = spawnService(env);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${service.output()}`)), timeoutMs);
    const check = () => {
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(service.output());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    service.child.stdout!.on('data', check);
    void service.exited.then((code) => reject(new Error(`service exited with ${code}:\n${service.output()}`)));
  });
  return { ...service, baseUrl: `http://127.0.0.1:${port}` };
};
