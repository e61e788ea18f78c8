export type { SqliteConnectionOptions } from './driver/sqliteConnection.js';
export type { SqliteDriverName } from './driver/sqliteDriver.js';
export { SqliteSession, type SqliteSessionOptions } from './session/sqliteSession.js';
export { SqliteStore, type SqliteStoreOptions } from './store/sqliteStore.js';
