import { type Server, type Socket, createConnection, createServer } from 'node:net';

/*
 * A TCP proxy in front of a real server that spoils PUT requests on demand, to test what happens when a write
 * is lost or slow: `drop-next-put` forwards the next PUT, lets the server do it, and then cuts the client off
 * before the answer (a write that landed but whose answer was lost, as a timeout loses it); `refuse-puts` answers
 * every PUT 503 without forwarding; `slow-puts` holds each PUT's answer for `delayMs`.
 */

export type ProxyMode = 'pass' | 'drop-next-put' | 'refuse-puts' | 'slow-puts';

export interface FaultyProxy {
  url: string;
  mode: ProxyMode;
  delayMs: number;
  /** PUTs cut off so far */
  dropped: number;
  close(): Promise<void>;
}

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const proxy: FaultyProxy = { url: '', mode: 'pass', delayMs: 300, dropped: 0, close: async () => {} };
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(upstream);
    let dropping = false;
    let slow = false;
    client.on('data', (chunk: Buffer) => {
      const put = chunk.subarray(0, 4).toString('latin1') === 'PUT ';
      if (put && proxy.mode === 'refuse-puts') {
        client.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
        upstream.destroy();
        return;
      }
      if (put && proxy.mode === 'drop-next-put') {
        proxy.mode = 'pass';
        dropping = true;
      }
      if (put && proxy.mode === 'slow-puts') slow = true;
      upstream.write(chunk);
    });
    // The answers go out in order, each after the delay of a slow PUT, and the client's side ends after the last.
    let sending = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      if (dropping) {
        proxy.dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      const wait = slow ? proxy.delayMs : 0;
      slow = false;
      sending = sending.then(async () => {
        if (wait > 0) await Bun.sleep(wait);
        if (!client.destroyed) client.write(chunk);
      });
    });
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
    };
    upstream.on('close', () => {
      void sending.then(() => client.end());
      forget();
    });
    client.on('close', () => {
      upstream.destroy();
      forget();
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => void sending.then(() => client.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
