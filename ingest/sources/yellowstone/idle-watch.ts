// Silence on an upstream stream: `arm` starts watching, `touch` (once per update: a clock read, no timer work)
// says it is alive, `onIdle` runs once when nothing came for `ms`; `disarm` stops watching. Resetting a timer on
// every update (clearTimeout + setTimeout) cost ~4% of the ingest's thread at mainnet's rate (the soak's profile,
// bench/README.md "Soak"); here the one timer wakes at most once per `ms` and re-arms for the rest of the window.
export class IdleWatch {
  private last = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  arm(): void {
    this.disarm();
    this.last = performance.now();
    this.timer = setTimeout(this.check, this.ms);
  }

  touch(): void {
    this.last = performance.now();
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly check = (): void => {
    const silent = performance.now() - this.last;
    if (silent < this.ms) {
      this.timer = setTimeout(this.check, this.ms - silent);
      return;
    }
    this.timer = undefined;
    this.onIdle();
  };
}
