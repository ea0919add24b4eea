import { config } from '../config.js';
import { CopyButton } from './copy-button.js';

/**
 * The `benchtrack run` line that submits to this API, as one can paste it into a shell or a CI step. The command it
 * runs is `benchtrack mock` (made-up results in the JSON adapter's format), so the line works before the project has
 * a benchmark of its own; `token` is the secret itself or a placeholder for it.
 */
export function runCommand({ project, token }: { project: string; token: string }): string {
  return `benchtrack run --host ${config.apiUrl} --token ${token} --project ${project} --adapter json "benchtrack mock"`;
}

export function RunCommand({ project, token }: { project: string; token: string }) {
  const line = runCommand({ project, token });
  return (
    <div class="run-command">
      <code class="secret-value" data-testid="run-command">
        {line}
      </code>
      <CopyButton text={line} label="Copy the command" />
      <p class="muted small">
        Replace <code>benchtrack mock</code> with your benchmark command and <code>json</code> with its
        harness (<code>benchtrack adapters</code> lists them); a project that does not exist yet is created by
        its first run.
      </p>
    </div>
  );
}
