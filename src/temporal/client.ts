import { Client, Connection } from '@temporalio/client';

/** A Temporal client whose connection opens on first use, so the API starts before Temporal is up. */
export function createTemporalClient(address: string, namespace: string): Client {
  return new Client({ connection: Connection.lazy({ address }), namespace });
}
