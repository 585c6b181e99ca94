import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface InviteMail {
  to: string;
  organizationTitle: string;
  joinUrl: string;
}

/** Sends invite emails, or logs the join link when no SMTP server is set. */
export interface Mailer {
  sendInvite(mail: InviteMail): Promise<void>;
}

export function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Mailer {
  if (!smtpUrl) {
    return {
      async sendInvite(mail) {
        log.info(
          { to: mail.to, joinUrl: mail.joinUrl },
          `invite for ${mail.to} to "${mail.organizationTitle}": ${mail.joinUrl} (FOLIO_SMTP_URL not set, no email sent)`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async sendInvite(mail) {
      await transport.sendMail({
        from,
        to: mail.to,
        subject: `You are invited to ${mail.organizationTitle} on Folio`,
        text: `You have been invited to join "${mail.organizationTitle}".\n\nJoin here: ${mail.joinUrl}\n`,
      });
    },
  };
}
