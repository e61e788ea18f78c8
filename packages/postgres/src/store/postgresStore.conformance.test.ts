import { memoryStoreConformance } from '@rxagent/core/testing';
import { describePostgres } from '../../test/describePostgres.js';
import { PostgresStore } from './postgresStore.js';

describePostgres('PostgresStore conformance', (server) => {
  let schemas = 0;
  // Each test gets an empty store: a schema of its own, migrated on first use.
  memoryStoreConformance(
    'PostgresStore',
    (options) =>
      new PostgresStore({
        connectionString: server().connectionString,
        schema: `memory_${++schemas}`,
        ...options,
      }),
  );
});
