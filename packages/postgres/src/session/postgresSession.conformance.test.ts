import { sessionConformance } from '@rxagent/core/testing';
import { describePostgres } from '../../test/describePostgres.js';
import { PostgresSession } from './postgresSession.js';

describePostgres('PostgresSession conformance', (server) => {
  let schemas = 0;
  // Each test gets an empty store: a schema of its own, migrated on first use.
  sessionConformance(
    'PostgresSession',
    () =>
      new PostgresSession({
        connectionString: server().connectionString,
        schema: `conformance_${++schemas}`,
      }),
  );
});
