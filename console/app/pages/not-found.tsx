import { Empty, PageHeader } from '../components/status.js';

export function NotFound() {
  return (
    <section>
      <PageHeader title="Page not found" />
      <Empty title="There is no page at this address.">
        <a href="/">Go to the start page</a>
      </Empty>
    </section>
  );
}
