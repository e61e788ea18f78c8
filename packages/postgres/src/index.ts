export type { PostgresConnectionOptions } from './connection/postgresConnection.js';
export { SCHEMA_VERSION, SchemaTooNewError } from './schema/migrations.js';
export { PostgresSession, type PostgresSessionOptions } from './session/postgresSession.js';
export { PostgresStore, type PostgresStoreOptions } from './store/postgresStore.js';
