// The parts a role started, stopped newest first: each wire* function adds what it started, so a failure
// half-way through start-up stops exactly what is running.
import type { Logger } from '../platform/log.js';

export class StopList {
  private readonly parts: { what: string; stop: () => Promise<void> }[] = [];

  constructor(private readonly log: Logger) {}

  add(what: string, stop: () => Promise<void>): void {
    this.parts.push({ what, stop });
  }

  /** Stops every part, newest first; a part that fails to stop is logged and the others still stop. */
  async stopAll(): Promise<void> {
    for (const { what, stop } of this.parts.splice(0).reverse()) {
      try {
        await stop();
        this.log.debug({ what }, 'stopped');
      } catch (err) {
        this.log.error({ err, what }, 'stop failed');
      }
    }
  }
}
