// Reads one SELECT from an SQLite file in a thread of its own and posts its rows a page at a
// time, as one flat list of cells: the database's work (a million ballots' subqueries and aggregates, half of a
// tally's time) runs beside the counting instead of before it. It runs at most AHEAD pages in
// front of the reader, which says "more" for each page it takes, so memory stays a few pages
// however many ballots there are. Imports nothing but Node's own modules, so that it runs as it
// is wherever the module that starts it runs (node, or a test runner that transforms the rest).
import { parentPort, workerData } from 'node:worker_threads';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

/** What the thread is given: the file, the statement and its parameters, and the page size. */
export interface ReaderJob {
  file: string;
  sql: string;
  parameters: SQLInputValue[];
  pageSize: number;
}

/** Pages posted before the reader has taken any. */
const AHEAD = 3;

if (parentPort) {
  const port = parentPort;
  const job = workerData as ReaderJob;
  // Its own read-only connection: one snapshot of the database from the first row to the last.
  const db = new DatabaseSync(job.file, { readOnly: true });
  const statement = db.prepare(job.sql);
  statement.setReturnArrays(true);
  const rows = statement.iterate(...job.parameters);
  let credit = AHEAD;
  let finished = false;
  const pump = () => {
    while (credit > 0 && !finished) {
      // One flat list of the page's cells, row after row: a fraction of the cost of a list of rows to copy to the other thread.
      const page: unknown[] = [];
      let count = 0;
      for (; count < job.pageSize; count++) {
        const next = rows.next();
        if (next.done) break;
        const row = next.value as unknown as unknown[];
        for (let c = 0; c < row.length; c++) page.push(row[c]);
      }
      if (count) {
        port.postMessage(page);
        credit--;
      }
      if (count < job.pageSize) {
        finished = true;
        port.postMessage(null);
        db.close();
        port.close();
        return;
      }
    }
  };
  port.on('message', () => {
    credit++;
    pump();
  });
  pump();
}
