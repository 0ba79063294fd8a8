import { insertOutboxMail } from '../db/outbox'

/**
 * Outgoing e-mail behind one interface. The local default writes to the `outbox` table (readable at
 * /authentication/outbox by the realm's signed-in staff, only while the Worker runs in development mode); a
 * production provider implements the same `send`.
 */
export interface OutgoingMail {
  realm: string
  to: string
  subject: string
  text: string
}

export interface EmailSender {
  send(mail: OutgoingMail): Promise<void>
}

/** Local default: keeps every message in D1. */
export class OutboxSender implements EmailSender {
  constructor(private readonly db: D1Database) {}

  async send(mail: OutgoingMail): Promise<void> {
    await insertOutboxMail(this.db, mail.realm, mail)
  }
}

/**
 * Production: a JSON e-mail API in the style most providers share (Resend's): `POST <url>/emails` with a Bearer key
 * and `{ from, to: [..], subject, text }`.
 */
export class HttpEmailSender implements EmailSender {
  constructor(
    private readonly url: string,
    private readonly key: string,
    private readonly from: string,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const res = await fetch(`${this.url.replace(/\/$/, '')}/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: this.from, to: [mail.to], subject: mail.subject, text: mail.text }),
    })
    if (!res.ok) throw new Error(`The e-mail provider answered HTTP ${res.status}.`)
  }
}

/** The sender of this deployment: the HTTP provider when configured (EMAIL_API_URL, EMAIL_API_KEY), else the outbox. */
export function emailSender(env: Env): EmailSender {
  if (env.EMAIL_API_URL && env.EMAIL_API_KEY) return new HttpEmailSender(env.EMAIL_API_URL, env.EMAIL_API_KEY, env.EMAIL_FROM || 'no-reply@localhost')
  return new OutboxSender(env.DB)
}

const RECOVERY = {
  'pt-BR': {
    subject: (realm: string) => `Redefinição de senha — ${realm}`,
    text: (name: string, realm: string, link: string, minutes: number) =>
      `Olá, ${name}.\n\nRecebemos um pedido para redefinir a sua senha em ${realm}. Para escolher uma nova senha, abra o link abaixo (válido por ${minutes} minutos e apenas uma vez):\n\n${link}\n\nSe você não fez este pedido, ignore esta mensagem; a sua senha continua a mesma.`,
  },
  'en-US': {
    subject: (realm: string) => `Password reset — ${realm}`,
    text: (name: string, realm: string, link: string, minutes: number) =>
      `Hello, ${name}.\n\nWe received a request to reset your password at ${realm}. To choose a new password, open the link below (valid for ${minutes} minutes, once):\n\n${link}\n\nIf you did not ask for this, ignore this message; your password stays the same.`,
  },
  'es-ES': {
    subject: (realm: string) => `Restablecimiento de contraseña — ${realm}`,
    text: (name: string, realm: string, link: string, minutes: number) =>
      `Hola, ${name}.\n\nRecibimos una solicitud para restablecer tu contraseña en ${realm}. Para elegir una nueva contraseña, abre el enlace siguiente (válido durante ${minutes} minutos y una sola vez):\n\n${link}\n\nSi no lo has solicitado, ignora este mensaje; tu contraseña no cambia.`,
  },
} as const

export type MailLang = keyof typeof RECOVERY
export const MAIL_LANGS = Object.keys(RECOVERY) as MailLang[]

/** The password-recovery message in the reader's interface language. */
export function recoveryMail(
  lang: MailLang,
  opts: { realm: string; realmName: string; to: string; name: string; link: string; minutes: number },
): OutgoingMail {
  const t = RECOVERY[lang]
  return { realm: opts.realm, to: opts.to, subject: t.subject(opts.realmName), text: t.text(opts.name, opts.realmName, opts.link, opts.minutes) }
}
