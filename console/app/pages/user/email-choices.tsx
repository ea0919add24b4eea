import { api, listAll, segment } from '../../api/client.js';
import type { NotificationChoiceJson, ProjectJson } from '../../api/types.js';
import { ErrorMessage, Loading } from '../../components/status.js';
import { useApi } from '../../lib/use-api.js';

const CHOICES = [
  ['off', 'Off'],
  ['each', 'Each regression'],
  ['daily', 'Daily digest'],
] as const;

/**
 * The user's e-mail choice for every project they may see: off, an e-mail for each new regression, or one
 * digest a day of the regressions of the day before. Each change is saved at once.
 */
export function EmailChoices({ user }: { user: string }) {
  const path = `/users/${segment(user)}/notifications`;
  const loaded = useApi(
    async (signal) => {
      const [choices, projects] = await Promise.all([
        api.get<NotificationChoiceJson[]>(path, {}, signal),
        listAll<ProjectJson>('/projects', {}, signal),
      ]);
      return { choices: new Map(choices.map((c) => [c.project.uuid, c.email])), projects };
    },
    [path],
  );
  return (
    <>
      <h2>E-mail about regressions</h2>
      <ErrorMessage error={loaded.error} />
      {loaded.loading && !loaded.data && <Loading />}
      {loaded.data && (
        <div class="table-wrap">
          <table aria-label="E-mail about regressions">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col">E-mail</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.projects.map((project) => (
                <tr key={project.uuid}>
                  <td>{project.name}</td>
                  <td>
                    <select
                      aria-label={`E-mail about ${project.name}`}
                      value={loaded.data?.choices.get(project.uuid) ?? 'off'}
                      onChange={async (e) => {
                        await api.put(`${path}/${segment(project.uuid)}`, { email: e.currentTarget.value });
                        loaded.reload();
                      }}
                    >
                      {CHOICES.map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
