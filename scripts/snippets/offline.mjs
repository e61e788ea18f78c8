// Loaded with `node --import` before a runnable snippet: any connection to a host that is not
// loopback fails at once, so a snippet that would need the network fails its check instead.
import net from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', undefined]);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect() passes its normalized arguments as one array: [options, callback].
  const [first, second] = Array.isArray(args[0]) ? args[0] : args;
  const options =
    typeof first === 'object' && first !== null ? first : { port: first, host: second };
  const host = typeof options.host === 'string' ? options.host.replace(/^\[|\]$/g, '') : undefined;
  const ipc = typeof options.path === 'string' && options.port === undefined;
  if (!ipc && !LOOPBACK.has(host)) {
    throw new Error(
      `Offline snippet: a connection to ${host}:${options.port} was attempted (use a scripted model).`,
    );
  }
  return connect.apply(this, args);
};
