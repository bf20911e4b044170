// The baseline: a bare nodemailer pool (5 connections, as Peervote's default) sending COUNT
// messages of the given subject, text and HTML to the sink at PORT, one recipient each.
// The parent times the whole process, start included, as it times Peervote's command.
//
//   node tests/bench/mail/bare-pool.ts PORT COUNT message.json
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';

const [port, count, file] = process.argv.slice(2);
const message = JSON.parse(readFileSync(file, 'utf8')) as { subject: string; text: string; html: string };
const transport = nodemailer.createTransport({
  host: '127.0.0.1',
  port: Number(port),
  secure: false,
  ignoreTLS: true,
  pool: true,
  maxConnections: 5,
  maxMessages: Number.POSITIVE_INFINITY,
});
let next = 0;
async function worker(): Promise<void> {
  while (next < Number(count)) {
    const n = next++;
    await transport.sendMail({
      from: 'Bench <bench@bench.example>',
      to: `person${n}@bench.example`,
      ...message,
      headers: { 'List-Unsubscribe': '<https://bench.example/u>' },
    });
  }
}
await Promise.all(Array.from({ length: 5 }, worker));
transport.close();
