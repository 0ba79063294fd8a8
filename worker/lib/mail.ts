/**
 * Outgoing e-mail behind one interface. The local default writes to the `outbox` table (readable in development
 * realms at /authentication/outbox); a production provider implements the same `send`.
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
    await this.db
      .prepare('INSERT INTO outbox (realm, to_address, subject, text, created_at) VALUES (?, ?, ?, ?, ?)')
      .bind(mail.realm, mail.to, mail.subject, mail.text, new Date().toISOString())
      .run()
  }
}

/** The sender of this deployment. */
export function emailSender(env: Env): EmailSender {
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
export function recoveryMail(lang: MailLang, opts: { realm: string; realmName: string; to: string; name: string; link: string; minutes: number }): OutgoingMail {
  const t = RECOVERY[lang]
  return { realm: opts.realm, to: opts.to, subject: t.subject(opts.realmName), text: t.text(opts.name, opts.realmName, opts.link, opts.minutes) }
}
