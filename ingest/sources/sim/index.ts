// Public surface of the simulator.
export { createSimSource } from './createSimSource.js';
export { DEFAULT_SIM_OPTIONS, validateSimOptions, type SimOptions } from './options.js';
