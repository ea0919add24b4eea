import { segment } from '../../api/client.js';
import { useLocation } from '../../router.js';

export function OrgTabs({ org }: { org: string }) {
  const { path } = useLocation();
  const base = `/console/organizations/${segment(org)}`;
  const tabs = [
    [base, 'Projects'],
    [`${base}/members`, 'Members'],
    [`${base}/settings`, 'Settings'],
  ] as const;
  return (
    <nav class="tabs" aria-label="Organization">
      {tabs.map(([href, label]) => (
        <a key={href} href={href} aria-current={path === href ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
