// A break in the browser's main thread, for code that has several things to do as the page starts
// (the islands of client:painted, the ballot page's own code): each runs in a task of its own, and a
// tap or a frame waiting in between goes first.

/**
 * Ends the task under way and resolves in a new one: before other waiting tasks where the browser
 * has `scheduler.yield()`, else after them (a message to itself, which no timer clamping delays).
 */
export function yieldToMain(): Promise<void> {
  if (typeof scheduler !== 'undefined' && typeof scheduler.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}
