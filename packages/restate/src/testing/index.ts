export {
  freePort,
  RESTATE_INSTALL_HINT,
  type RestateServer,
  type RestateServerOptions,
  restateServerBinary,
  startRestateServer,
} from './restateServer.js';
