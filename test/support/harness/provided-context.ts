// Types of what test/support/harness/global-setup.ts provides to the test workers (vitest provide/inject).
declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap list of the run's shared Kafka broker. */
    kafkaBrokers: string[];
  }
}

export {};
