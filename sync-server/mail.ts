import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface InviteMail {
  to: string;
  organizationTitle: string;
  joinUrl: string;
}

export interface SignInLinkMail {
  to: string;
  /** The one-use sign-in link (its secret is in it: logged only when there is no SMTP server). */
  link: string;
  expiresInMinutes: number;
}

/** Sends invite emails and sign-in links, or logs the link when no SMTP server is set. */
export interface Mailer {
  sendInvite(mail: InviteMail): Promise<void>;
  sendSignInLink(mail: SignInLinkMail): Promise<void>;
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
      async sendSignInLink(mail) {
        // Without SMTP the operator hands the link over: it is the only way to deliver it.
        log.info(
          { to: mail.to, signInUrl: mail.link },
          `sign-in link for ${mail.to}: ${mail.link} (FOLIO_SMTP_URL not set, no email sent)`,
        );
      },
    };
  }
  // nodemailer (and the TLS and DNS code it pulls in) loads on the first email, not at boot: most
  // servers send none for a long while. The transport is made once and shared by every send.
  let opened: Promise<Transporter> | undefined;
  const smtp = () =>
    (opened ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(smtpUrl)));
  return {
    async sendInvite(mail) {
      const transport = await smtp();
      await transport.sendMail({
        from,
        to: mail.to,
        subject: `You are invited to ${mail.organizationTitle} on Folio`,
        text: `You have been invited to join "${mail.organizationTitle}".\n\nJoin here: ${mail.joinUrl}\n`,
      });
    },
    async sendSignInLink(mail) {
      const transport = await smtp();
      await transport.sendMail({
        from,
        to: mail.to,
        subject: 'Your Folio sign-in link',
        text:
          `Sign in to Folio as ${mail.to}:\n\n${mail.link}\n\n` +
          `The link works once, within ${mail.expiresInMinutes} minutes. ` +
          `If you did not ask for it, ignore this email: nobody can sign in without it.\n`,
      });
    },
  };
}
