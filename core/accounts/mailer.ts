/** One e-mail, as every transport receives it. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The one link the message is about (confirmation, invitation), so transports can show it prominently. */
  readonly link?: string;
  /** Where the recipient stops such mail (a notification's unsubscribe page): the List-Unsubscribe header. */
  readonly unsubscribe?: string;
}

/**
 * Sends e-mail. With `smtp` configured it goes through the relay; without, the whole message (with its link)
 * goes to the server log, so a self-hosted administrator can still confirm accounts.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
