import { database } from './db/instance.ts';
import { noteLinkOpen } from './repositories/link-opens.repository.ts';
import { secretHash } from './tokens.ts';

/**
 * Notes that a personal link was opened, keyed by a hash of its secret (the secret itself is
 * neither stored nor logged). A failure to note it never keeps the voter from their ballot.
 */
export async function recordLinkOpen(projectId: string, secret: string, now = new Date()): Promise<void> {
  try {
    const { db } = await database();
    await noteLinkOpen(db, projectId, secretHash(secret), now);
  } catch (error) {
    console.error(`Could not record a link opening for ${projectId}: ${(error as Error).message}`);
  }
}
