import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

export interface MailMessage {
  id: number;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

/** Delivers one message or throws (the worker retries later). */
export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

function envelope(m: MailMessage) {
  return {
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    ...(m.html ? { html: m.html } : {}),
    messageId: `<outbox-${m.id}@roster>`,
  };
}

/** SMTP through nodemailer: `smtp://user:pass@host:port` or `smtps://…`. */
export function smtpTransport(url: string, timeoutMs = 10_000): MailTransport {
  const transporter = nodemailer.createTransport(url, {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as never);
  return {
    kind: 'smtp',
    async send(m) {
      await transporter.sendMail(envelope(m));
    },
    close() {
      transporter.close();
    },
  };
}

/** No SMTP configured: each message becomes `<dataDir>/mail/<id>.eml`, readable by any mail client. */
export function fileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'file',
    async send(m) {
      const info = await transporter.sendMail(envelope(m));
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${String(m.id).padStart(8, '0')}.eml`);
      const tmp = `${file}.tmp`;
      await fs.writeFile(tmp, info.message as Buffer);
      await fs.rename(tmp, file);
    },
    close() {
      transporter.close();
    },
  };
}

export function transportFor(config: Config): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : fileTransport(path.join(config.dataDir, 'mail'));
}
