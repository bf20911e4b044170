// An SMTP server that accepts every message and keeps none: the benchmark's far end, in a
// process of its own so that it takes no processor time from the sender being measured.
// Prints "port N" once it listens.
import { SMTPServer } from 'smtp-server';

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
server.listen(0, '127.0.0.1', () => process.stdout.write(`port ${server.server.address().port}\n`));
process.on('SIGTERM', () => {
  process.stderr.write(`smtp-sink: ${count} messages\n`);
  server.close(() => process.exit(0));
});
