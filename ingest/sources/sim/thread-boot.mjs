// Entry of the simulator's worker thread: the roles run TypeScript through tsx, and a worker thread does not
// inherit the parent's loader, so it registers tsx before loading the worker's module.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
