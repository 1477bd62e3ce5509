import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp } from '../testing/harness.ts';
import { smtpTransport } from './transports.ts';
import { deliverDueMail, retryDelayMs } from './worker.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

const servers: SMTPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
async function startSmtp(port = 0): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = (server as unknown as { server: net.Server }).server.address() as net.AddressInfo;
  return { port: address.port, received };
}

/** A port nothing listens on (taken and released). */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const decode = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('invite mail over SMTP', () => {
  it('arrives at a real SMTP server with the right recipient, subject, link and expiry', async () => {
    const smtp = await startSmtp();
    const t = await makeTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, publicUrl: 'https://roster.example.com' });
    const owner = await t.user();
    const org = await t.org(owner, 'Acme Ltd');
    const res = await t.request('POST', `/v0/organizations/${org.organizationId}/invites`, {
      key: org.ownerKey,
      json: { email: 'New.Person@Example.com', expires_in_days: 5 },
    });
    expect(res.statusCode).toBe(201);
    const invite = res.json();
    const transport = smtpTransport(t.app.deps.config.smtpUrl!, 2000);
    try {
      expect(await deliverDueMail(t.app.deps, transport)).toEqual({ sent: 1, failed: 0 });
    } finally {
      transport.close();
    }
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.to).toEqual(['new.person@example.com']);
    expect(mail.from).toBe('no-reply@roster.local');
    expect(mail.raw).toMatch(/^To: new\.person@example\.com\r?$/m);
    expect(mail.raw).toMatch(/^Subject: You've been invited to join Acme Ltd\r?$/m);
    const body = decode(mail.raw);
    expect(body).toContain(`https://roster.example.com/invite?token=${invite.token}`);
    expect(body).toContain(invite.expires_at);
    expect(body).toContain(new Date(invite.expires_at).toUTCString());
    const row = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });

  it('an SMTP outage delays the mail without failing or losing the invite; it is sent once the server is back', async () => {
    const port = await deadPort();
    const t = await makeTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    const owner = await t.user();
    const org = await t.org(owner, 'Outage Inc');
    const res = await t.request('POST', `/v0/organizations/${org.organizationId}/invites`, {
      key: org.ownerKey,
      json: { email: 'later@example.com' },
    });
    expect(res.statusCode).toBe(201);
    const invite = res.json();

    const down = smtpTransport(`smtp://127.0.0.1:${port}`, 2000);
    expect(await deliverDueMail(t.app.deps, down)).toEqual({ sent: 0, failed: 1 });
    let row = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toBeTruthy();
    expect(new Date(row.next_attempt_at).getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));
    // Not due yet: a second pass does not hammer the server.
    expect(await deliverDueMail(t.app.deps, down)).toEqual({ sent: 0, failed: 0 });
    down.close();
    // The invite is intact and listed.
    const list = await t.request('GET', `/v0/organizations/${org.organizationId}/invites`, { key: org.ownerKey });
    expect(list.json().invites.map((i: { id: string }) => i.id)).toEqual([invite.id]);

    // The server comes back on the same address; after the back-off the mail goes out.
    const smtp = await startSmtp(port);
    t.clock.advance(retryDelayMs(1));
    const up = smtpTransport(`smtp://127.0.0.1:${port}`, 2000);
    try {
      expect(await deliverDueMail(t.app.deps, up)).toEqual({ sent: 1, failed: 0 });
    } finally {
      up.close();
    }
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['later@example.com']);
    expect(decode(smtp.received[0].raw)).toContain(`/invite?token=${invite.token}`);
    row = await t.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('the server process runs the worker: buildApp with mailWorker on delivers without a manual pass', async () => {
    const smtp = await startSmtp();
    const t = await makeTestApp({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailWorker: true });
    await t.app.ready();
    const owner = await t.user();
    const org = await t.org(owner, 'Worker Co');
    await t.request('POST', `/v0/organizations/${org.organizationId}/invites`, { key: org.ownerKey, json: { email: 'auto@example.com' } });
    const deadline = Date.now() + 10_000;
    while (smtp.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received.map((m) => m.to)).toEqual([['auto@example.com']]);
  });
});
