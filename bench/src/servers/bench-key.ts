/**
 * The one 32-byte key both Parley and the raw SDK server seal or sign their `requestState` with,
 * so neither pays for key generation and both run with a configured key as a fleet would.
 * A benchmark key, never used for anything else.
 */
export const BENCH_KEY_BASE64 = 'DmKiH860jaOQ3wteCfCfeyQILb2FVMerOhlJKSCyPPs=';
export const BENCH_KEY = new Uint8Array(Buffer.from(BENCH_KEY_BASE64, 'base64'));
