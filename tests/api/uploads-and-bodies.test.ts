import http from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PDF, SINK_QUERY, rowCounts, sinkBallot, startApi, type Api } from './helpers.ts';
import { multipart } from '../support/ballots.mjs';

let api: Api;
const LIMIT = 64 * 1024;
beforeAll(async () => {
  api = await startApi({ BODY_SIZE_LIMIT: String(LIMIT) });
});
afterAll(() => api?.stop());

const uploadsDir = () => path.join(api.dataDir, 'uploads');
const search = new URLSearchParams(SINK_QUERY).toString();

describe('files', () => {
  test('a PDF is stored under a random name outside the web root, and never served back', async () => {
    const { status, body } = await api.post(sinkBallot({ cv: PDF }), { query: SINK_QUERY });
    expect(status).toBe(201);
    const [upload] = await api.db().selectFrom('uploads').selectAll().where('ballot_id', '=', body.ballot_id).execute();
    expect(upload).toMatchObject({ field: 'cv', original_name: 'cv.pdf', content_type: 'application/pdf', size: PDF.data.length });
    expect(upload.id).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    expect(readdirSync(uploadsDir())).toContain(upload.id);
    expect(statSync(path.join(uploadsDir(), upload.id)).mode & 0o777).toBe(0o600);
    for (const guess of [`/uploads/${upload.id}`, `/data/uploads/${upload.id}`, `/${upload.id}`]) {
      expect((await api.get(guess)).status).toBe(404);
    }
  });

  test('the type is read from the content: a PNG sent as a PDF is stored as a PNG', async () => {
    const png = { name: 'scan.pdf', type: 'application/pdf', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) };
    const { status, body } = await api.post(sinkBallot({ cv: png }), { query: SINK_QUERY });
    expect(status).toBe(201);
    const upload = await api.db().selectFrom('uploads').selectAll().where('ballot_id', '=', body.ballot_id).executeTakeFirstOrThrow();
    expect(upload.content_type).toBe('image/png');
    expect(upload.id).toMatch(/\.png$/);
  });

  describe('refused, leaving neither a row nor a file', () => {
    let before: Record<string, number>;
    let files: string[];
    beforeAll(async () => {
      before = await rowCounts(api.db());
      files = readdirSync(uploadsDir());
    });
    afterAll(async () => {
      expect(await rowCounts(api.db())).toEqual(before);
      expect(readdirSync(uploadsDir())).toEqual(files);
    });

    test('a file whose content is not of an accepted type, whatever its name and declared type', async () => {
      const fake = { name: 'cv.pdf', type: 'application/pdf', data: new TextEncoder().encode('MZ this is an executable') };
      const { status, body } = await api.post(sinkBallot({ cv: fake }), { query: SINK_QUERY });
      expect(status).toBe(422);
      expect(body.problems).toEqual([{ path: 'cv', message: "cv: the file's content is not PDF, PNG." }]);
      const gif = { name: 'cv.png', type: 'image/png', data: new TextEncoder().encode('GIF89a......') };
      expect((await api.post(sinkBallot({ cv: gif }), { query: SINK_QUERY })).status).toBe(422);
    });

    test('a fake file is named together with every other problem of the ballot', async () => {
      const fake = { name: 'cv.pdf', type: 'application/pdf', data: new TextEncoder().encode('not a pdf') };
      const { status, body } = await api.post(sinkBallot({ cv: fake, email: 'nope' }), { query: SINK_QUERY });
      expect(status).toBe(422);
      expect(body.problems.map((p: { path: string }) => p.path).sort()).toEqual(['cv', 'email']);
    });

    test('a declared type the field does not accept', async () => {
      const { status, body } = await api.post(sinkBallot({ cv: { name: 'cv.txt', type: 'text/plain', data: new Uint8Array([65]) } }), { query: SINK_QUERY });
      expect(status).toBe(422);
      expect(body.problems).toEqual([{ path: 'cv', message: 'Cv must be a PDF or PNG file.' }]);
    });

    test('a file larger than the field’s maxFileSize', async () => {
      const big = { ...PDF, data: new Uint8Array(3000).fill(0x20).map((byte, i) => (i < 5 ? PDF.data[i] : byte)) };
      const { status, body } = await api.post(sinkBallot({ cv: big }), { query: SINK_QUERY });
      expect(status).toBe(422);
      expect(body.problems).toEqual([{ path: 'cv', message: 'Cv must be 2 KB or smaller.' }]);
    });

    test('a body larger than BODY_SIZE_LIMIT, by its Content-Length: 413 before it is read', async () => {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${api.url}/api/survey?${search}`, {
          method: 'POST',
          headers: { Origin: api.url, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(10 * 1024 ** 3) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.write('--x\r\n'); // a few bytes of a body that would be 10 GB: the answer comes anyway
      });
      expect(status).toBe(413);
      expect(JSON.parse(body).error).toBe('body_too_large');
    });

    test('a chunked body that grows past BODY_SIZE_LIMIT: 413', async () => {
      const { body, contentType } = multipart([...sinkBallot(), ['notes', 'x'.repeat(LIMIT * 2)]] as Array<[string, string]>);
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 8192) controller.enqueue(body.subarray(i, i + 8192));
          controller.close();
        },
      });
      const answer = await api.request(`/api/survey?${search}`, {
        method: 'POST',
        body: stream,
        headers: { Origin: api.url, 'Content-Type': contentType },
        duplex: 'half',
      } as RequestInit);
      expect(answer.status).toBe(413);
    });

    test('malformed multipart: 400', async () => {
      const answer = await api.request(`/api/survey?${search}`, {
        method: 'POST',
        body: '--nope\r\nthis is not a part\r\n',
        headers: { Origin: api.url, 'Content-Type': 'multipart/form-data; boundary=other' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('malformed_body');
    });

    test('not multipart at all: 415', async () => {
      const answer = await api.request(`/api/survey?${search}`, {
        method: 'POST',
        body: '{"email":"a@b.c"}',
        headers: { Origin: api.url, 'Content-Type': 'application/json' },
      });
      expect(answer.status).toBe(415);
    });
  });
});
