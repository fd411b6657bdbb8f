import { describe, expect, it } from 'vitest';
import { anchorDiscriminator, PUMP_DISCRIMINATORS } from './discriminators.js';
import { decodePumpInstruction, pumpInstructionName } from './decode.js';

// Values from reference/pumpfun.md, checked against the computed ones.
const DOC_HEX = {
  initialize: 'afaf6d1f0d989bed',
  set_params: '1beab2349302bb8d',
  create: '181ec828051c0777',
  buy: '66063d1201daebea',
  sell: '33e685a4017f83ad',
  withdraw: 'b712469c946da122',
} as const;

const disc = (name: keyof typeof DOC_HEX) => Buffer.from(DOC_HEX[name], 'hex');
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const str = (s: string | Buffer) => {
  const body = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  const len = Buffer.alloc(4);
  len.writeUInt32LE(body.length);
  return Buffer.concat([len, body]);
};
const cat = (...parts: Buffer[]) => Buffer.concat(parts);

const FEE = Buffer.alloc(32, 0xcd);
const CREATOR = Buffer.alloc(32, 0xab);
const MAX = 18446744073709551615n;

const setParams = cat(
  disc('set_params'),
  FEE,
  u64(1_073_000_000_000_000n),
  u64(30_000_000_000n),
  u64(793_100_000_000_000n),
  u64(1_000_000_000_000_000n),
  u64(100n),
);
const createOld = cat(disc('create'), str('Pepe Coin'), str('PEPE'), str('https://ipfs.io/ipfs/Qm123'));
const createNew = cat(createOld, CREATOR);
const buyOld = cat(disc('buy'), u64(123_456_789n), u64(MAX));
const buyNew = cat(buyOld, Buffer.from([1]));
const sell = cat(disc('sell'), u64(MAX), u64(0n));

describe('pump.fun discriminators', () => {
  it('are sha256("global:<snake_name>")[0..8] and equal the values in pumpfun.md', () => {
    for (const [name, hex] of Object.entries(DOC_HEX)) {
      expect(PUMP_DISCRIMINATORS[name as keyof typeof DOC_HEX].toString('hex')).toBe(hex);
    }
  });
  it('account and event discriminators follow the same rule (BondingCurve, TradeEvent)', () => {
    expect(anchorDiscriminator('account', 'BondingCurve').toString('hex')).toBe('17b7f83760d8ac60');
    expect(anchorDiscriminator('account', 'Global').toString('hex')).toBe('a7e8e8b1c86c727f');
    expect(anchorDiscriminator('event', 'TradeEvent').toString('hex')).toBe('bddb7fd34ee661ee');
    expect(anchorDiscriminator('event', 'CreateEvent').toString('hex')).toBe('1b72a94ddeeb6376');
  });
});

describe('decodePumpInstruction: each instruction', () => {
  it('initialize (no arguments)', () => {
    expect(decodePumpInstruction(disc('initialize'))).toEqual({ $case: 'initialize', value: {} });
  });

  it('withdraw (no arguments)', () => {
    expect(decodePumpInstruction(disc('withdraw'))).toEqual({ $case: 'withdraw', value: {} });
  });

  it('set_params, original 72-byte layout', () => {
    expect(decodePumpInstruction(setParams)).toEqual({
      $case: 'setParams',
      value: {
        feeRecipient: FEE,
        initialVirtualTokenReserves: 1_073_000_000_000_000n,
        initialVirtualSolReserves: 30_000_000_000n,
        initialRealTokenReserves: 793_100_000_000_000n,
        tokenTotalSupply: 1_000_000_000_000_000n,
        feeBasisPoints: 100n,
      },
    });
  });

  it('set_params in a later (longer) layout is not decoded', () => {
    expect(decodePumpInstruction(cat(setParams, Buffer.alloc(49, 1)))).toBeUndefined();
    expect(decodePumpInstruction(cat(setParams, Buffer.from([0])))).toBeUndefined();
  });

  it('set_params fee_recipient does not alias the input bytes', () => {
    const data = Buffer.from(setParams);
    const d = decodePumpInstruction(data);
    data.fill(0);
    expect(d?.$case === 'setParams' && d.value.feeRecipient.equals(FEE)).toBe(true);
  });

  it('create, original layout', () => {
    expect(decodePumpInstruction(createOld)).toEqual({
      $case: 'create',
      value: { name: 'Pepe Coin', symbol: 'PEPE', uri: 'https://ipfs.io/ipfs/Qm123' },
    });
  });

  it('create with the trailing creator pubkey', () => {
    expect(decodePumpInstruction(createNew)).toEqual({
      $case: 'create',
      value: { name: 'Pepe Coin', symbol: 'PEPE', uri: 'https://ipfs.io/ipfs/Qm123' },
    });
  });

  it('create with empty and non-ASCII strings', () => {
    expect(decodePumpInstruction(cat(disc('create'), str(''), str('ÆØ'), str('🚀 moon')))).toEqual({
      $case: 'create',
      value: { name: '', symbol: 'ÆØ', uri: '🚀 moon' },
    });
  });

  it('create with a string length running past the end is not decoded', () => {
    const bad = cat(disc('create'), str('a'), str('b'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('short'));
    expect(decodePumpInstruction(bad)).toBeUndefined();
    const huge = cat(disc('create'), Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.alloc(40));
    expect(decodePumpInstruction(huge)).toBeUndefined();
  });

  it('create with invalid UTF-8 is not decoded (Borsh rejects it, so the program would have failed)', () => {
    expect(decodePumpInstruction(cat(disc('create'), str(Buffer.from([0xc3, 0x28])), str('S'), str('u')))).toBeUndefined();
    expect(decodePumpInstruction(cat(disc('create'), str('N'), str('S'), str(Buffer.from([0xff]))))).toBeUndefined();
  });

  it('buy, original layout', () => {
    expect(decodePumpInstruction(buyOld)).toEqual({ $case: 'buy', value: { amount: 123_456_789n, maxSolCost: MAX } });
  });

  it('buy with the trailing track_volume byte', () => {
    expect(decodePumpInstruction(buyNew)).toEqual({ $case: 'buy', value: { amount: 123_456_789n, maxSolCost: MAX } });
    expect(decodePumpInstruction(cat(buyOld, Buffer.from([0])))).toEqual({
      $case: 'buy',
      value: { amount: 123_456_789n, maxSolCost: MAX },
    });
  });

  it('sell', () => {
    expect(decodePumpInstruction(sell)).toEqual({ $case: 'sell', value: { amount: MAX, minSolOutput: 0n } });
  });

  it('ignores trailing bytes after the known arguments, as Anchor does', () => {
    expect(decodePumpInstruction(cat(disc('initialize'), Buffer.alloc(10, 7)))).toEqual({ $case: 'initialize', value: {} });
    expect(decodePumpInstruction(cat(disc('withdraw'), Buffer.alloc(3)))).toEqual({ $case: 'withdraw', value: {} });
    expect(decodePumpInstruction(cat(sell, Buffer.alloc(50, 9)))?.$case).toBe('sell');
    expect(decodePumpInstruction(cat(createNew, Buffer.alloc(50, 9)))?.$case).toBe('create');
  });

  it('reads correctly from a Uint8Array view at an odd offset of a larger buffer', () => {
    const backing = new Uint8Array(buyNew.length + 3);
    backing.set(buyNew, 3);
    expect(decodePumpInstruction(backing.subarray(3))).toEqual({ $case: 'buy', value: { amount: 123_456_789n, maxSolCost: MAX } });
  });
});

describe('decodePumpInstruction: truncated data at every length', () => {
  // For each sample: the shortest prefix that still decodes (to the same value); every shorter one gives undefined.
  const samples: Array<[string, Buffer, number]> = [
    ['initialize', disc('initialize'), 8],
    ['withdraw', disc('withdraw'), 8],
    ['buy (new)', buyNew, buyOld.length],
    ['sell', sell, sell.length],
    ['create (new)', createNew, createOld.length],
  ];
  it.each(samples)('%s', (_name, full, minLength) => {
    const fullDecoded = decodePumpInstruction(full);
    expect(fullDecoded).toBeDefined();
    for (let len = 0; len <= full.length; len++) {
      const d = decodePumpInstruction(full.subarray(0, len));
      if (len < minLength) expect(d, `length ${len}`).toBeUndefined();
      else expect(d, `length ${len}`).toEqual(fullDecoded);
    }
  });

  it('set_params decodes only at exactly 80 bytes', () => {
    for (let len = 0; len < setParams.length; len++) expect(decodePumpInstruction(setParams.subarray(0, len))).toBeUndefined();
    expect(decodePumpInstruction(setParams)?.$case).toBe('setParams');
  });
});

describe('decodePumpInstruction: unknown and garbage data', () => {
  it('returns undefined for other pump.fun instructions (buy_exact_sol_in, create_v2, extend_account, ...)', () => {
    for (const name of [
      'buy_exact_sol_in',
      'create_v2',
      'buy_v2',
      'sell_v2',
      'extend_account',
      'migrate',
      'collect_creator_fee',
      'setParams',
    ]) {
      const data = cat(anchorDiscriminator('global', name), u64(1n), u64(2n), Buffer.alloc(40, 1));
      expect(decodePumpInstruction(data), name).toBeUndefined();
      expect(pumpInstructionName(data)).toBeUndefined();
    }
  });

  it('returns undefined for empty and short data', () => {
    expect(decodePumpInstruction(new Uint8Array(0))).toBeUndefined();
    expect(decodePumpInstruction(disc('buy').subarray(0, 7))).toBeUndefined();
  });

  it('fuzz: never throws on random data, random tails after real discriminators, or random mutations', () => {
    let seed = 0x5eed;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
    const discs = Object.values(PUMP_DISCRIMINATORS);
    const valid = [setParams, createOld, createNew, buyOld, buyNew, sell];
    let decoded = 0;
    for (let i = 0; i < 30_000; i++) {
      let data: Buffer;
      const mode = i % 3;
      if (mode === 0) data = randomBytes(Math.floor(rand() * 120));
      else if (mode === 1) data = cat(discs[Math.floor(rand() * discs.length)]!, randomBytes(Math.floor(rand() * 120)));
      else {
        data = Buffer.from(valid[Math.floor(rand() * valid.length)]!);
        for (let k = 0; k < 3; k++) data[8 + Math.floor(rand() * (data.length - 8))] = Math.floor(rand() * 256);
        data = data.subarray(0, Math.floor(rand() * (data.length + 1)));
      }
      const d = decodePumpInstruction(data);
      if (d !== undefined) {
        decoded++;
        expect(['initialize', 'setParams', 'create', 'buy', 'sell', 'withdraw']).toContain(d.$case);
      }
    }
    // Random tails after a real discriminator decode often (buy, sell, initialize, ...): the loop reached the decoders.
    expect(decoded).toBeGreaterThan(1000);
  });
});
