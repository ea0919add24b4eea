import { JobSignal } from '../runners/signal.js';

/**
 * Wakes this process's delivery loop when a request here made work for it (a test delivery, a redelivery, a
 * report with a webhook): it then need not wait for its next look. Work another process made is found by that
 * look.
 */
export class NotificationSignal extends JobSignal {}
