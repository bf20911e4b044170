// An SMTP server that accepts every message and keeps none: the benchmark's far end, in a
// process of its own so that it takes no processor time from the sender being measured.
// Listens on a free port of the test range (PEERVOTE_TEST_PORTS) and prints "port N" once it does.
import { SMTPServer } from 'smtp-server';
import { listenInRange } from '../../support/server.mjs';

let count = 0;
const server = new SMTPServer({
  secure: false,
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  closeTimeout: 50,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      count++;
      callback();
    });
  },
});
process.stdout.write(`port ${await listenInRange(server)}\n`);
process.on('SIGTERM', () => {
  process.stderr.write(`smtp-sink: ${count} messages\n`);
  server.close(() => process.exit(0));
});
