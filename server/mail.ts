import type { LiveConfig, Logger, Mailer, MailMessage } from '../core/index.js';

/**
 * The mail transport of the running configuration: SMTP through nodemailer when `smtp` is configured,
 * otherwise the whole message (with its link) goes to the server log at info level. Reads the configuration on
 * every message, so `PUT /v0/server/config` applies to the next e-mail.
 */
export function createMailer(config: LiveConfig, logger: Logger): Mailer {
  let transport: { key: string; send: (message: MailMessage) => Promise<void> } | undefined;
  return {
    async send(message) {
      const smtp = config.current.smtp;
      if (!smtp) {
        logger.info(
          { mail: { to: message.to, subject: message.subject, link: message.link, text: message.text } },
          'e-mail written to the log (no smtp relay configured)',
        );
        return;
      }
      const key = JSON.stringify(smtp);
      if (transport?.key !== key) transport = { key, send: smtpSender(smtp) };
      await transport.send(message);
      logger.info({ to: message.to, subject: message.subject }, 'e-mail sent');
    },
  };
}

type Smtp = NonNullable<LiveConfig['current']['smtp']>;

/** nodemailer is loaded with the first e-mail sent through a relay: a server without `smtp` never loads it. */
function smtpSender(smtp: Smtp): (message: MailMessage) => Promise<void> {
  const transporter = import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      host: smtp.hostname,
      port: smtp.port,
      secure: smtp.port === 465,
      requireTLS: smtp.starttls && smtp.port !== 465,
      ignoreTLS: !smtp.starttls && smtp.port !== 465,
      tls: { rejectUnauthorized: !smtp.insecure_host },
      auth: { user: smtp.username, pass: smtp.secret },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    }),
  );
  return async (message) => {
    const transport = await transporter;
    await transport.sendMail({
      from: { name: smtp.from_name, address: smtp.from_email },
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.unsubscribe ? { list: { unsubscribe: message.unsubscribe } } : {}),
    });
  };
}
