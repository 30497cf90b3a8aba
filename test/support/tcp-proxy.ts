import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL, so a test can take the database away from a
 * running service (every connection cut, new ones refused) and give it back.
 */
export const startTcpProxy = async (target: { host: string; port: number }) => {
  let up = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!up) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    /** The same URL, through the proxy. */
    wrap(url: string) {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${port}`;
      return parsed.toString();
    },
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    restore() {
      up = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
