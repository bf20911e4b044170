import { atom } from 'nanostores';

/** What goes with a reported error: the ballot (files by name and size) and who sent it. */
export interface ErrorContext {
  ballot?: Record<string, unknown>;
  user?: { id?: string; email?: string; name?: string };
  tags?: Record<string, string>;
}

/** Sends an error to the error-reporting service (the console until one is configured); may resolve once sent. */
export type Reporter = (error: unknown, context: ErrorContext) => void | Promise<void>;

/** The error reporter in use; an error-reporting integration replaces it. */
export const $reporter = atom<Reporter>((error, context) => console.error(error, context));

/** Reports an error with its context to whichever reporter is in use; resolves once it is sent, never rejects. */
export async function reportError(error: unknown, context: ErrorContext = {}): Promise<void> {
  try {
    await $reporter.get()(error, context);
  } catch (failure) {
    console.error('The error could not be reported.', failure, error);
  }
}
