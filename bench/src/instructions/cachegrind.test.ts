import { describe, expect, it } from 'vitest';
import { classify } from './cachegrind.js';

// The shape of `cg_annotate --auto=no --threshold=0` on a cg_diff of two runs.
const ANNOTATED = `--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
3,049,663,958 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                    file:function
--------------------------------------------------------------------------------
180,282,365 ( 5.91%)  ???:???
104,467,510 ( 3.43%)  ???:v8::internal::compiler::GraphReducer::ReduceTop()
 70,886,358 ( 2.32%)  ???:Builtins_LoadIC
 45,047,842 ( 1.48%)  ???:v8::internal::Scavenger::ScavengeObject(v8::internal::FullHeapObjectSlot)
 17,546,204 ( 0.58%)  ???:v8::internal::MarkCompactCollector::ProcessMarkingWorklist(unsigned long)
 16,027,892 ( 0.53%)  ???:v8::internal::BaselineFrame::GetPCForBytecodeOffset(int) const
     -1,000 (-0.00%)  ???:v8::internal::Sweeper::RawSweep(v8::internal::Page*)
        250 ( 0.00%)  ./string/../sysdeps/x86_64/multiarch/memset-vec-unaligned-erms.S:__memset_avx2_unaligned_erms
`;

describe('classify', () => {
  it("sums each function's instructions as compiler, collector or the program's own work", () => {
    expect(classify(ANNOTATED)).toEqual({
      compile: 104_467_510 + 16_027_892,
      gc: 45_047_842 + 17_546_204 - 1_000,
      rest: 180_282_365 + 70_886_358 + 250,
      total: 104_467_510 + 16_027_892 + 45_047_842 + 17_546_204 - 1_000 + 180_282_365 + 70_886_358 + 250,
    });
  });

  it('reads nothing before the per-function table (the totals line is not a function)', () => {
    expect(classify('3,049,663,958 (100.0%)  PROGRAM TOTALS\n')).toEqual({
      compile: 0,
      gc: 0,
      rest: 0,
      total: 0,
    });
  });
});
