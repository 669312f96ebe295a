#include "textflag.h"

// func addWidenedAVX512(dst *float64, src *float32, n int)
// dst[i] += float64(src[i]) for i < n, n a multiple of 16.
TEXT ·addWidenedAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ done
loop:
	VCVTPS2PD 0(SI), Z0
	VCVTPS2PD 32(SI), Z1
	VADDPD 0(DI), Z0, Z0
	VADDPD 64(DI), Z1, Z1
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
