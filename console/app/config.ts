/** Where the API is: the host puts it in a meta tag of index.html (see console/host/serve.ts). */
export interface ConsoleConfig {
  readonly apiUrl: string;
  readonly consoleUrl: string;
}

function readConfig(): ConsoleConfig {
  const content = document.querySelector('meta[name="benchtrack-config"]')?.getAttribute('content');
  const parsed = content ? (JSON.parse(content) as { api_url?: string; console_url?: string }) : {};
  return {
    // Without a host (vite preview of the bare build) the API is assumed at its default port.
    apiUrl: (parsed.api_url ?? 'http://localhost:61016').replace(/\/+$/, ''),
    consoleUrl: parsed.console_url ?? location.origin,
  };
}

export const config: ConsoleConfig = readConfig();
