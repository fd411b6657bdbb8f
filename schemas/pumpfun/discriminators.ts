// Anchor instruction discriminators: the first 8 bytes of sha256("global:<snake_name>"). Computed here rather
// than copied, because some public IDLs carry wrong values (camelCase names hashed).
import { createHash } from 'node:crypto';

export const PUMP_INSTRUCTION_NAMES = ['initialize', 'set_params', 'create', 'buy', 'sell', 'withdraw'] as const;
export type PumpInstructionName = (typeof PUMP_INSTRUCTION_NAMES)[number];

export function anchorDiscriminator(namespace: 'global' | 'account' | 'event', name: string): Buffer {
  return createHash('sha256').update(`${namespace}:${name}`).digest().subarray(0, 8);
}

export const PUMP_DISCRIMINATORS: Readonly<Record<PumpInstructionName, Buffer>> = Object.freeze(
  Object.fromEntries(PUMP_INSTRUCTION_NAMES.map((n) => [n, anchorDiscriminator('global', n)])) as Record<PumpInstructionName, Buffer>,
);
