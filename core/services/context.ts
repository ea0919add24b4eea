import type { Mailer } from '../accounts/mailer.js';
import type { LiveConfig, Tokens } from '../accounts/tokens.js';
import type { Logger } from '../logging.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { Storage } from '../storage/storage.js';

/** What the services share: storage, tokens, mail, plugins, the running configuration and the clock. */
export interface ServiceContext {
  readonly storage: Storage;
  readonly tokens: Tokens;
  readonly mailer: Mailer;
  readonly config: LiveConfig;
  readonly logger: Logger;
  /** Adapters and threshold models. */
  readonly registry: PluginRegistry;
  readonly now: () => Date;
}
