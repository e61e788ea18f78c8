/** A TCP port on 127.0.0.1 that was free a moment ago (the one of `@rxagent/core/testing`). */
export { freePort } from '@rxagent/core/testing';
export {
  RESTATE_INSTALL_HINT,
  type RestateServer,
  type RestateServerOptions,
  restateServerBinary,
  startRestateServer,
} from './restateServer.js';
