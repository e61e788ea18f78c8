/**
 * The PostgreSQL store of react-agent's durable crash harness (its `WorldStore` module): each
 * world's session is a `PostgresSession` in a schema of its own, named after the world.
 */
import { PostgresSession } from '@rxagent/postgres';

/** A `PostgresSession` on `connectionString`, in the schema `w_<prefix as an identifier>`. */
export function openSession(connectionString: string, prefix: string): PostgresSession {
  const schema = `w_${prefix.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
  return new PostgresSession({ connectionString, schema });
}
