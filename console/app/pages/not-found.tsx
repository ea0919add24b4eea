import { Empty, PageHeader } from '../components/status.js';

export function NotFound() {
  return (
    <section>
      <PageHeader title="Page not found" />
      <Empty title="There is no page at this address.">
        The link may be mistyped or out of date. <a href="/">Go to the projects</a> and look from there.
      </Empty>
    </section>
  );
}
