export {
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  type PostgresServerOptions,
  postgresBinDir,
  postgresServerAvailable,
  startPostgresServer,
} from './postgresServer.js';
