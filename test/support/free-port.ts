import net from 'node:net';

/** A port free on 127.0.0.1 a moment ago: listen on 0, read it, close. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
