import type { ComponentChildren } from 'preact';
import { PageHeader } from '../../components/status.js';

/** The card every login, sign-up and confirmation page sits in. */
export function AuthFrame({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="auth card">
      <PageHeader title={title} />
      {children}
    </section>
  );
}
