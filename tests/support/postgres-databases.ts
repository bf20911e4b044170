import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Runs one statement on the cluster at `adminUrl`, on a connection of its own. */
async function onCluster(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database on the cluster at `adminUrl` (named `prefix` and a random part): empty, or a copy of `template`. Its URL. */
export async function createPostgresDatabase(
  adminUrl: string,
  { template, prefix = 'peervote_test' }: { template?: string; prefix?: string } = {},
): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onCluster(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database at `databaseUrl` from the cluster at `adminUrl`, whoever is still connected to it. */
export async function dropPostgresDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  await onCluster(adminUrl, `DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
}
